#!/usr/bin/env python3
"""Builds testdata/secrets/heldout.jsonl: secrets, personal data and benign look-alikes as they
appear in agent transcripts and experience records.

Written without sight of the redaction rules, so the set measures how the rules generalise.
Every value is synthetic: tokens come from a seeded generator in each provider's published shape,
and numbers that carry a checksum (cards, IBANs, national ids) are computed to be valid, or, for the
benign look-alikes, deliberately invalid. Deterministic: rerunning rewrites the same file.

    python3 testdata/secrets/build_heldout.py
"""

import base64
import json
import os
import random
import string

R = random.Random(20261127)

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DIG = string.digits
ALNUM = UP + LO + DIG
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def rs(chars, n):
    return "".join(R.choice(chars) for _ in range(n))


def b64(s):
    return base64.b64encode(s.encode()).decode()


def b64url(s):
    return base64.urlsafe_b64encode(s.encode()).decode().rstrip("=")


# ---------------------------------------------------------------- checksums


def luhn_complete(partial):
    """Appends the Luhn check digit to `partial`."""
    digits = [int(c) for c in partial + "0"]
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return partial + str((10 - total % 10) % 10)


def luhn_ok(num):
    digits = [int(c) for c in num if c.isdigit()]
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def iban_numeric(s):
    return "".join(str(int(c, 36)) for c in s)


def iban(country, bban):
    check = 98 - int(iban_numeric(bban + country + "00")) % 97
    return f"{country}{check:02d}{bban}"


def iban_ok(s):
    s = s.replace(" ", "")
    return int(iban_numeric(s[4:] + s[:4])) % 97 == 1


def spaced4(s):
    return " ".join(s[i : i + 4] for i in range(0, len(s), 4))


def fr_rib_key(bank, branch, account):
    return 97 - ((89 * int(bank) + 15 * int(branch) + 3 * int(account)) % 97)


def nl_account():
    """A 10-digit Dutch account number passing the old 11-test."""
    while True:
        acc = "0" + rs(DIG, 9)
        if sum(int(d) * w for d, w in zip(acc, range(10, 0, -1))) % 11 == 0:
            return acc


CN_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]


def cn_id(region, birth, seq):
    body = f"{region}{birth}{seq}"
    s = sum(int(d) * w for d, w in zip(body, CN_WEIGHTS))
    return body + "10X98765432"[s % 11]


def hkid(prefix, digits):
    chars = ([" "] if len(prefix) == 1 else []) + list(prefix) + list(digits)
    vals = [36 if c == " " else (ord(c) - 55 if c.isalpha() else int(c)) for c in chars]
    s = sum(v * w for v, w in zip(vals, range(9, 1, -1)))
    c = (11 - s % 11) % 11
    return f"{prefix}{digits}({'A' if c == 10 else c})"


TW_LETTERS = dict(
    A=10, B=11, C=12, D=13, E=14, F=15, G=16, H=17, I=34, J=18, K=19, L=20, M=21, N=22, O=35,
    P=23, Q=24, R=25, S=26, T=27, U=28, V=29, W=32, X=30, Y=31, Z=33,
)


def tw_id(letter, body8):
    n = TW_LETTERS[letter]
    s = (n // 10) + (n % 10) * 9 + sum(int(d) * w for d, w in zip(body8, range(8, 0, -1)))
    return f"{letter}{body8}{(10 - s % 10) % 10}"


def my_number(body11):
    s = 0
    for n in range(1, 12):
        p = int(body11[11 - n])
        q = n + 1 if n <= 6 else n - 5
        s += p * q
    r = s % 11
    return body11 + str(0 if r <= 1 else 11 - r)


def kr_rrn(body12):
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    s = sum(int(d) * x for d, x in zip(body12, w))
    return body12 + str((11 - s % 11) % 10)


# ---------------------------------------------------------------- cases

CASES = []


def pos(category, family, text, secret, lang=None):
    assert secret in text, (category, text, secret)
    assert text.count(secret) == 1, (category, secret)
    case = {"category": category, "family": family, "kind": "secret", "text": text, "secret": secret}
    if lang:
        case["lang"] = lang
    CASES.append(case)


def neg(category, text, lang=None):
    case = {"category": category, "family": "benign", "kind": "benign", "text": text}
    if lang:
        case["lang"] = lang
    CASES.append(case)


def aws_key_id(prefix="AKIA"):
    return prefix + rs(UP + "234567", 16)


def aws_secret():
    return rs(B64, 40)


# -- cloud ------------------------------------------------------------------

k = aws_key_id()
pos("aws_access_key_id", "cloud", f"export AWS_ACCESS_KEY_ID={k}", k)
k = aws_key_id()
pos("aws_access_key_id", "cloud", f"[default]\naws_access_key_id = {k}\nregion = eu-west-1", k)
k = aws_key_id("ASIA")
pos("aws_access_key_id", "cloud", f'{{"Credentials": {{"AccessKeyId": "{k}", "Expiration": "2024-11-27T12:00:00Z"}}}}', k)
k = aws_key_id()
pos("aws_access_key_id", "cloud", f"botocore.exceptions.ClientError: An error occurred (InvalidAccessKeyId) when calling the PutObject operation: The AWS Access Key Id {k} you provided does not exist in our records.", k)
k = aws_key_id()
pos("aws_access_key_id", "cloud", f"Tried `aws s3 ls` with key {k} from the CI vars - got AccessDenied, the IAM policy lacked s3:ListBucket.", k)
k = aws_key_id()
pos("aws_access_key_id", "cloud", f"用 {k} 这个 key 调 S3 一直 403，最后发现是区域写错了", k, lang="zh")

s = aws_secret()
pos("aws_secret_key", "cloud", f"aws_secret_access_key = {s}", s)
s = aws_secret()
pos("aws_secret_key", "cloud", f"export AWS_SECRET_ACCESS_KEY='{s}'", s)
s = aws_secret()
pos("aws_secret_key", "cloud", f'"SecretAccessKey": "{s}",', s)
s = aws_secret()
pos("aws_secret_key", "cloud", f"docker run -e AWS_SECRET_ACCESS_KEY={s} -e AWS_REGION=us-east-1 myorg/uploader:1.4", s)
s = aws_secret()
pos("aws_secret_key", "cloud", f"The secret key is {s} - paste it into the boto3 client and the upload works.", s)
s = aws_secret()
pos("aws_secret_key", "cloud", f"s3cmd --access_key=$KEY --secret_key={s} put dump.sql.gz s3://backups/", s)

for i in range(4):
    body = rs(B64, 64)
    tail = rs(B64, 64)
    pk = f"-----BEGIN PRIVATE KEY-----\\nMIIEv{body}\\n{tail}\\n-----END PRIVATE KEY-----\\n"
    proj = R.choice(["ml-prod-4411", "analytics-dev", "acme-data-platform", "kb-ingest"])
    txt = [
        f'{{"type": "service_account", "project_id": "{proj}", "private_key_id": "{rs(HEX, 40)}", "private_key": "{pk}", "client_email": "loader@{proj}.iam.gserviceaccount.com"}}',
        f'  "private_key": "{pk}",',
        f"GOOGLE_PRIVATE_KEY=\"{pk}\"",
        f"credentials.json contains \"private_key\": \"{pk}\" and the client_email of the loader SA",
    ][i]
    pos("gcp_service_account_key", "cloud", txt, f"MIIEv{body}")

for i in range(5):
    acct = R.choice(["acmeprodlogs", "kbstore01", "mediaassetsweu", "tfstate4411", "backupsea"])
    key = rs(B64, 86) + "=="
    if i == 0:
        pos("azure_storage", "cloud", f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net", key)
    elif i == 1:
        pos("azure_storage", "cloud", f'az storage blob upload --account-name {acct} --account-key "{key}" -c builds -f out.zip', key)
    elif i == 2:
        pos("azure_storage", "cloud", f"AZURE_STORAGE_KEY={key}", key)
    else:
        sig = rs(B64, 43) + "%3D"
        url = f"https://{acct}.blob.core.windows.net/exports/report.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2024-12-31T00:00:00Z&st=2024-11-01T00:00:00Z&spr=https&sig={sig}"
        pos("azure_storage", "cloud", f"curl -o report.csv \"{url}\"" if i == 3 else f"SAS URL for the export: {url}", sig)

for i in range(3):
    sec = rs(ALNUM + "~._-", 8) + "8Q~" + rs(ALNUM + "~._-", 29)
    pos("azure_ad_client_secret", "cloud", [
        f"AZURE_CLIENT_SECRET={sec}",
        f'az login --service-principal -u 3f2a9c1e-7b4d-4e8a-9f1c-2d3e4f5a6b7c -p "{sec}" --tenant contoso.onmicrosoft.com',
        f'"clientSecret": "{sec}",',
    ][i], sec)

# -- source hosting and package registries ----------------------------------

for i in range(4):
    t = "ghp_" + rs(ALNUM, 36)
    pos("github_token", "token", [
        f"git clone https://{t}@github.com/acme/infra.git",
        f"export GITHUB_TOKEN={t}",
        f"gh auth login --with-token <<< {t}",
        f'curl -H "Authorization: token {t}" https://api.github.com/user/repos',
    ][i], t)
t = "github_pat_11" + rs(UP + DIG, 20) + "_" + rs(ALNUM, 59)
pos("github_token", "token", f"GH_TOKEN={t} gh pr create --fill", t)
t = "github_pat_11" + rs(UP + DIG, 20) + "_" + rs(ALNUM, 59)
pos("github_token", "token", f"fine-grained token for the release bot: {t} (expires in 30 days)", t)
t = "gho_" + rs(ALNUM, 36)
pos("github_token", "token", f"oauth_token: {t}\n    user: octo-dev\n    git_protocol: https", t)
t = "ghs_" + rs(ALNUM, 36)
pos("github_token", "token", f"remote: Invalid username or password. fatal: Authentication failed for 'https://x-access-token:{t}@github.com/acme/app.git/'", t)

for i in range(4):
    t = "glpat-" + rs(ALNUM + "_-", 20)
    pos("gitlab_token", "token", [
        f'curl --header "PRIVATE-TOKEN: {t}" https://gitlab.example.org/api/v4/projects',
        f"git remote set-url origin https://oauth2:{t}@gitlab.com/acme/backend.git",
        f"GITLAB_TOKEN={t}",
        f"GitLab 的个人令牌是 {t}，权限 api+read_repository",
    ][i], t, lang="zh" if i == 3 else None)
t = "glptt-" + rs(HEX, 40)
pos("gitlab_token", "token", f'curl -X POST -F token={t} -F ref=main https://gitlab.com/api/v4/projects/4411/trigger/pipeline', t)

for i in range(4):
    t = "npm_" + rs(ALNUM, 36)
    pos("npm_token", "token", [
        f"//registry.npmjs.org/:_authToken={t}",
        f"NPM_TOKEN={t} npm publish --access public",
        f"npm config set //registry.npmjs.org/:_authToken {t}",
        f'"NODE_AUTH_TOKEN": "{t}"',
    ][i], t)

for i in range(3):
    t = "pypi-AgEIcHlwaS5vcmc" + rs(B64URL, 140)
    pos("pypi_token", "token", [
        f"twine upload -u __token__ -p {t} dist/*",
        f"[pypi]\n  username = __token__\n  password = {t}",
        f"TWINE_PASSWORD={t}",
    ][i], t)

for i in range(3):
    t = "dckr_pat_" + rs(ALNUM + "_-", 27)
    pos("dockerhub_pat", "token", [
        f"echo {t} | docker login -u acmebuild --password-stdin",
        f"DOCKERHUB_TOKEN={t}",
        f"docker login -u acmebuild -p {t}",
    ][i], t)

for i in range(2):
    t = "hf_" + rs(ALNUM, 34)
    pos("huggingface_token", "token", [
        f"huggingface-cli login --token {t}",
        f"HF_TOKEN={t} python train.py --push-to-hub",
    ][i], t)

for i in range(2):
    t = "shpat_" + rs(HEX, 32)
    pos("shopify_token", "token", [
        f'curl -H "X-Shopify-Access-Token: {t}" https://acme-store.myshopify.com/admin/api/2024-10/orders.json',
        f"SHOPIFY_ADMIN_TOKEN={t}",
    ][i], t)

# -- chat and messaging -----------------------------------------------------

for i in range(4):
    t = f"xoxb-{rs(DIG, 12)}-{rs(DIG, 13)}-{rs(ALNUM, 24)}"
    pos("slack_token", "token", [
        f"SLACK_BOT_TOKEN={t}",
        f'curl -H "Authorization: Bearer {t}" -d channel=C04ABCD1234 -d text=deployed https://slack.com/api/chat.postMessage',
        f"slack_sdk.errors.SlackApiError: token={t} error=not_in_channel",
        f"app = App(token=\"{t}\")",
    ][i], t)
t = f"xoxp-{rs(DIG, 12)}-{rs(DIG, 12)}-{rs(DIG, 13)}-{rs(HEX, 32)}"
pos("slack_token", "token", f"user token for the export script: {t}", t)
t = f"xapp-1-A0{rs(UP + DIG, 9)}-{rs(DIG, 13)}-{rs(HEX, 64)}"
pos("slack_token", "token", f"SLACK_APP_TOKEN={t}", t)
w = f"T0{rs(UP + DIG, 9)}/B0{rs(UP + DIG, 9)}/{rs(ALNUM, 24)}"
pos("slack_webhook", "token", f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"build failed\"}}' https://hooks.slack.com/services/{w}", w)
w = f"T0{rs(UP + DIG, 9)}/B0{rs(UP + DIG, 9)}/{rs(ALNUM, 24)}"
pos("slack_webhook", "token", f"alertmanager receiver slack_configs: - api_url: https://hooks.slack.com/services/{w}", w)

for i in range(4):
    t = f"{R.randint(5000000000, 7999999999)}:AA{rs(ALNUM + '_-', 33)}"
    pos("telegram_bot_token", "token", [
        f"curl https://api.telegram.org/bot{t}/sendMessage -d chat_id=-100123456 -d text=ok",
        f"TELEGRAM_BOT_TOKEN={t}",
        f"bot = telebot.TeleBot(\"{t}\")",
        f"Telegram 机器人 token：{t}，给 @BotFather 重新生成过一次",
    ][i], t, lang="zh" if i == 3 else None)

for i in range(3):
    uid = str(R.randint(10**17, 10**18 - 1))
    t = f"{b64url(uid)}.{rs(B64URL, 6)}.{rs(B64URL, 38)}"
    pos("discord_token", "token", [
        f"DISCORD_TOKEN={t}",
        f"client.run('{t}')",
        f"discord.errors.LoginFailure: Improper token has been passed. token={t}",
    ][i], t)
w = f"{R.randint(10**17, 10**18 - 1)}/{rs(B64URL, 68)}"
pos("discord_webhook", "token", f"curl -H 'Content-Type: application/json' -d '{{\"content\":\"deploy ok\"}}' https://discord.com/api/webhooks/{w}", w)

# -- payment and SaaS APIs ---------------------------------------------------

for i in range(3):
    t = "sk_live_" + rs(ALNUM, R.choice([24, 99]))
    pos("stripe_key", "token", [
        f"stripe.api_key = \"{t}\"",
        f"STRIPE_SECRET_KEY={t}",
        f"curl https://api.stripe.com/v1/charges -u {t}:",
    ][i], t)
t = "rk_live_" + rs(ALNUM, 99)
pos("stripe_key", "token", f"restricted key for the reporting job: {t}", t)
t = "whsec_" + rs(ALNUM, 32)
pos("stripe_key", "token", f"STRIPE_WEBHOOK_SECRET={t}", t)

t = "sk-proj-" + rs(B64URL, 156)
pos("openai_key", "token", f"export OPENAI_API_KEY={t}", t)
t = "sk-" + rs(ALNUM, 20) + "T3BlbkFJ" + rs(ALNUM, 20)
pos("openai_key", "token", f"openai.AuthenticationError: Error code: 401 - Incorrect API key provided: {t}.", t)
t = "sk-proj-" + rs(B64URL, 156)
pos("openai_key", "token", f'client = OpenAI(api_key="{t}")', t)
t = "sk-ant-api03-" + rs(B64URL, 93) + "AA"
pos("anthropic_key", "token", f"ANTHROPIC_API_KEY={t}", t)
t = "sk-ant-api03-" + rs(B64URL, 93) + "AA"
pos("anthropic_key", "token", f'curl https://api.anthropic.com/v1/messages -H "x-api-key: {t}" -H "anthropic-version: 2023-06-01"', t)
t = "sk-ant-admin01-" + rs(B64URL, 93) + "AA"
pos("anthropic_key", "token", f"admin key (do not share): {t}", t)

for i in range(4):
    if i == 0:
        t = "SK" + rs(HEX, 32)
        pos("twilio", "token", f"TWILIO_API_KEY={t}\nTWILIO_API_SECRET={rs(ALNUM, 32)}", t)
    elif i == 1:
        t = rs(HEX, 32)
        pos("twilio", "token", f"TWILIO_AUTH_TOKEN={t}", t)
    elif i == 2:
        t = rs(HEX, 32)
        pos("twilio", "token", f"client = Client(\"AC{rs(HEX, 32)}\", \"{t}\")", t)
    else:
        t = rs(HEX, 32)
        pos("twilio", "token", f"curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC{rs(HEX, 32)}/Messages.json -u AC{rs(HEX, 32)}:{t}", t)

for i in range(3):
    t = f"SG.{rs(B64URL, 22)}.{rs(B64URL, 43)}"
    pos("sendgrid_key", "token", [
        f"SENDGRID_API_KEY={t}",
        f"sg = SendGridAPIClient('{t}')",
        f'curl -H "Authorization: Bearer {t}" https://api.sendgrid.com/v3/mail/send',
    ][i], t)

for i in range(3):
    t = "key-" + rs(HEX, 32)
    if i == 2:
        t = f"{rs(HEX, 32)}-{rs(HEX, 8)}-{rs(HEX, 8)}"
    pos("mailgun_key", "token", [
        f"curl -s --user 'api:{t}' https://api.mailgun.net/v3/mg.acme.io/messages -F to=ops@acme.io",
        f"MAILGUN_API_KEY={t}",
        f"mailgun: api_key: {t}\n  domain: mg.acme.io",
    ][i], t)

for i in range(4):
    if i < 2:
        t = "hvs." + rs(B64URL, 91)
    elif i == 2:
        t = "s." + rs(ALNUM, 24)
    else:
        t = "hvb." + rs(B64URL, 120)
    pos("vault_token", "token", [
        f"export VAULT_TOKEN={t}",
        f'curl -H "X-Vault-Token: {t}" https://vault.internal:8200/v1/secret/data/db',
        f"vault login {t}",
        f"Using batch token {t} for the CI job",
    ][i], t)

for i in range(5):
    header = b64url('{"alg":"HS256","typ":"JWT"}') if i % 2 == 0 else b64url('{"alg":"RS256","kid":"k1","typ":"JWT"}')
    payload = b64url(json.dumps({"sub": str(R.randint(1000, 99999)), "name": R.choice(["Li Wei", "Anna Berg", "dev-bot"]), "iat": 1732700000 + i, "exp": 1732786400 + i}, separators=(",", ":")))
    jwt = f"{header}.{payload}.{rs(B64URL, 43 if i % 2 == 0 else 342)}"
    pos("jwt", "token", [
        f"Authorization: Bearer {jwt}",
        f"localStorage.setItem('access_token', '{jwt}')",
        f"curl -H 'Authorization: Bearer {jwt}' http://api.internal/v1/me",
        f"{{\"access_token\":\"{jwt}\",\"token_type\":\"bearer\",\"expires_in\":86400}}",
        f"jwt.exceptions.ExpiredSignatureError while decoding {jwt}",
    ][i], jwt)

for i in range(4):
    sec = "GOCSPX-" + rs(B64URL, 28) if i < 3 else rs(B64URL, 24)
    cid = f"{R.randint(10**11, 10**12 - 1)}-{rs(LO + DIG, 32)}.apps.googleusercontent.com"
    pos("google_oauth_client_secret", "token", [
        f'{{"installed":{{"client_id":"{cid}","project_id":"kb-sync","client_secret":"{sec}","redirect_uris":["http://localhost"]}}}}',
        f"GOOGLE_CLIENT_SECRET={sec}",
        f"oauth: client_id={cid} client_secret={sec}",
        f'  "client_secret": "{sec}",',
    ][i], sec)

for i in range(3):
    t = "AIza" + rs(B64URL, 35)
    pos("google_api_key", "token", [
        f"https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key={t}",
        f"GOOGLE_API_KEY={t}",
        f'const firebaseConfig = {{ apiKey: "{t}", authDomain: "kb-app.firebaseapp.com" }};',
    ][i], t)

t = "ATATT3xFfGF0" + rs(B64URL, 180) + "=" + rs(HEX.upper(), 8)
pos("atlassian_token", "token", f"curl -u dev@acme.io:{t} https://acme.atlassian.net/rest/api/3/issue/KB-12", t)
t = "dop_v1_" + rs(HEX, 64)
pos("digitalocean_token", "token", f"doctl auth init -t {t}", t)

# -- passwords in tools and files ---------------------------------------------

PW = ["Wint3r!2024pg", "q7R#mZ2v9Lp", "hunter2", "S3cr3tPass!", "Xk9#vB2$mQ", "P@ssw0rd_Prod", "correcthorsebatterystaple", "t8Wq!z", "Lh3$kq9ZmPa", "zaq12wsxCDE", "Mj7&nR2!xq", "redis-Pw-8812", "pg_Adm1n#77", "Qwerty!23456", "b4ckup-Str0ng", "mongo!Prod9", "Ab12cd34", "ynk2!TQz", "R0ot#mysql", "sUp3r_S3cret", "9vT!eLq2#r", "Kj8$p2Lm!z", "rabbit_Mq1!", "Tr0ub4dor&3x", "W3lcome#KB", "Sh4dow-777", "dbpass_2024!", "f00Bar!baz", "Nov#2024xy", "h7G!mz3Q"]
PWI = iter(PW)


def pw():
    return next(PWI)


p = pw()
pos("netrc_password", "password", f"machine api.heroku.com\n  login ops@acme.io\n  password {p}", p)
p = pw()
pos("netrc_password", "password", f"machine github.com login octo-dev password {p}", p)
p = pw()
pos("netrc_password", "password", f"cat ~/.netrc\nmachine artifactory.acme.io login ci-reader password {p}", p)
p = pw()
pos("netrc_password", "password", f"echo 'machine pypi.internal login deploy password {p}' >> ~/.netrc", p)

p = pw()
pos("pgpass_password", "password", f"db.internal:5432:orders:app_rw:{p}", p)
p = pw()
pos("pgpass_password", "password", f"echo '*:*:*:postgres:{p}' > ~/.pgpass && chmod 600 ~/.pgpass", p)
p = pw()
pos("pgpass_password", "password", f"~/.pgpass:\nlocalhost:5433:analytics:report:{p}", p)
p = pw()
pos("pgpass_password", "password", f"10.0.3.17:6432:*:pgbouncer:{p}", p)

p = pw()
pos("redis_password", "password", f"redis-cli -h cache.internal -p 6379 -a {p} ping", p)
p = pw()
pos("redis_password", "password", f"redis-cli -a '{p}' --no-auth-warning INFO replication", p)
p = pw()
pos("redis_password", "password", f"requirepass {p}", p)
p = pw()
pos("redis_password", "password", f"127.0.0.1:6379> AUTH default {p}\nOK", p)

p = pw()
pos("mysql_password", "password", f"mysql -h 10.0.0.12 -uroot -p{p} -e 'SHOW DATABASES'", p)
p = pw()
pos("mysql_password", "password", f"mysqldump --user=backup --password={p} --all-databases > all.sql", p)
p = pw()
pos("mysql_password", "password", f"MYSQL_PWD={p} mysql -u app shop", p)
p = pw()
pos("mysql_password", "password", f"docker run -e MYSQL_ROOT_PASSWORD={p} -d mysql:8.0", p)

p = pw()
pos("password_assignment", "password", f'db:\n  host: db.internal\n  user: app\n  password: "{p}"', p)
p = pw()
pos("password_assignment", "password", f"spring.datasource.password={p}", p)
p = pw()
pos("password_assignment", "password", f"sshpass -p '{p}' ssh deploy@10.1.2.3 'systemctl restart api'", p)
p = pw()
pos("password_assignment", "password", f"psql: connected after I set PGPASSWORD={p}", p)
p = pw()
pos("password_assignment", "password", f"管理员密码是 {p}，登录后记得改", p, lang="zh")

# -- DSNs and URLs with credentials -------------------------------------------

PW2 = ["Pg!2024sec", "mongoPw77x", "r3d1sPass", "amqpS3cret", "myApp#pw1", "Sq1Serv3r!", "c0uchPw", "n3o4jPass", "ftpPa55", "elast1cPw", "kafka_Pw9", "go_dsn_Pw1"]
PW2I = iter(PW2)
p = next(PW2I)
pos("dsn_password", "dsn", f"DATABASE_URL=postgres://app:{p}@db.internal:5432/app?sslmode=require", p)
p = next(PW2I)
pos("dsn_password", "dsn", f'MONGO_URI="mongodb+srv://admin:{p}@cluster0.ab1cd.mongodb.net/prod?retryWrites=true"', p)
p = next(PW2I)
pos("dsn_password", "dsn", f"REDIS_URL=redis://:{p}@cache.internal:6379/0", p)
p = next(PW2I)
pos("dsn_password", "dsn", f"pika.exceptions.ProbableAuthenticationError: amqp://guest2:{p}@rabbit:5672/%2F", p)
p = next(PW2I)
pos("dsn_password", "dsn", f"sqlalchemy.create_engine('mysql+pymysql://shop:{p}@10.0.0.12:3306/shop')", p)
p = next(PW2I)
pos("dsn_password", "dsn", f"Server=tcp:sql01.acme.local,1433;Database=crm;User ID=crm_app;Password={p};Encrypt=True;", p)
p = next(PW2I)
pos("dsn_password", "dsn", f"jdbc:postgresql://db.internal:5432/orders?user=orders&password={p}&ssl=true", p)
p = next(PW2I)
pos("dsn_password", "dsn", f"NEO4J_URI=bolt://neo4j:{p}@graph.internal:7687", p)
p = next(PW2I)
pos("dsn_password", "dsn", f"wget ftp://backup:{p}@files.acme.local/dumps/latest.tar.gz", p)
p = next(PW2I)
pos("dsn_password", "dsn", f"elasticsearch.exceptions.AuthenticationException: https://elastic:{p}@es01:9200/_bulk", p)
p = next(PW2I)
pos("dsn_password", "dsn", f"jdbc:mysql://db01:3306/app?user=app&password={p}", p)
p = next(PW2I)
pos("dsn_password", "dsn", f'dsn := "gouser:{p}@tcp(127.0.0.1:3306)/inventory?parseTime=true"', p)
p = "goPw_7731"
pos("dsn_password", "dsn", f'db, err := sql.Open("mysql", "root:{p}@tcp(mysql:3306)/app")', p)
p = "Pg2dsn!x"
pos("dsn_password", "dsn", f'connStr := "host=db.internal port=5432 user=app password={p} dbname=app sslmode=disable"', p)
p = "clickPw42"
pos("dsn_password", "dsn", f"clickhouse-client --host ch01 --user default --password {p} --query 'SELECT 1'", p)

# -- docker, kubernetes --------------------------------------------------------

for i, (u, p) in enumerate([("acmebuild", "dckrPw!2024"), ("ci-bot", "RegPass_88x"), ("zhangwei", "Zw#reg2024"), ("_json_key", "gcrKeyPw1")]):
    a = b64(f"{u}:{p}")
    host = ["https://index.docker.io/v1/", "registry.acme.io", "harbor.internal:8443", "gcr.io"][i]
    pos("docker_config_auth", "password", [
        f'{{"auths": {{"{host}": {{"auth": "{a}"}}}}}}',
        f'cat ~/.docker/config.json\n{{\n  "auths": {{\n    "{host}": {{\n      "auth": "{a}"\n    }}\n  }}\n}}',
        f'"{host}": {{ "auth": "{a}", "email": "" }}',
        f'kubectl create secret generic regcred --from-literal=.dockerconfigjson=\'{{"auths":{{"{host}":{{"auth":"{a}"}}}}}}\'',
    ][i], a)

t = "eyJhbGciOiJSUzI1NiIsImtpZCI6I" + rs(B64URL, 60) + "." + rs(B64URL, 300) + "." + rs(B64URL, 342)
pos("kube_token", "cloud", f"users:\n- name: ci\n  user:\n    token: {t}", t)
t = rs(HEX, 6) + "." + rs(LO + DIG, 16)
pos("kube_token", "cloud", f"kubeadm join 10.0.0.10:6443 --token {t} --discovery-token-ca-cert-hash sha256:{rs(HEX, 64)}", t)
ck = "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo" + rs(B64, 120)
pos("kube_token", "cloud", f"- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM{rs(B64, 40)}\n    client-key-data: {ck}", ck)
t = rs(ALNUM, 6) + "." + rs(ALNUM, 16)
pos("kube_token", "cloud", f"kubectl --server=https://10.0.0.10:6443 --token={t} get pods -A", t)

# -- PEM private keys ----------------------------------------------------------

for i, kind in enumerate(["RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "PRIVATE KEY", "RSA PRIVATE KEY", "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY"]):
    first = {"RSA PRIVATE KEY": "MIIEpAIBAAKCAQEA", "EC PRIVATE KEY": "MHcCAQEEI", "OPENSSH PRIVATE KEY": "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "PRIVATE KEY": "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "ENCRYPTED PRIVATE KEY": "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI"}[kind]
    line1 = first + rs(B64, 64 - len(first) if len(first) < 64 else 6)
    line2 = rs(B64, 64)
    if i == 4:  # truncated: no END line
        txt = f"cat id_rsa\n-----BEGIN {kind}-----\n{line1}\n{line2}\n..."
    elif i == 5:  # pasted into one line
        txt = f"key was: -----BEGIN {kind}----- {line1} {line2} -----END {kind}-----"
    else:
        txt = f"-----BEGIN {kind}-----\n{line1}\n{line2}\n{rs(B64, 40)}==\n-----END {kind}-----"
    pos("private_key_pem", "pem", txt, line2)

# -- HTTP credentials ----------------------------------------------------------

for i, (u, p) in enumerate([("admin", "Adm1nPw!"), ("jenkins", "j3nk1nsTok"), ("grafana", "gr4f4na#1")]):
    a = b64(f"{u}:{p}")
    pos("basic_auth", "http", [
        f"Authorization: Basic {a}",
        f'curl -H "Authorization: Basic {a}" https://ci.acme.io/api/json',
        f"requests.get(url, headers={{'Authorization': 'Basic {a}'}})",
    ][i], a)
pos("basic_auth", "http", "curl -u deploy:Dpl0y!pass https://nexus.acme.io/repository/raw/app.tgz -O", "Dpl0y!pass")
pos("basic_auth", "http", "wget --user=ci --password=W9etPass! https://artifacts.acme.io/build.zip", "W9etPass!")
pos("basic_auth", "http", "git clone https://jdoe:gitPw2024!@git.acme.local/team/repo.git", "gitPw2024!")

for i in range(3):
    t = rs(ALNUM, 40)
    pos("bearer_token", "http", [
        f'curl -H "Authorization: Bearer {t}" https://api.acme.io/v2/items',
        f"headers = {{'Authorization': f'Bearer {t}'}}",
        f"> GET /v1/users HTTP/1.1\n> Host: api.internal\n> Authorization: Bearer {t}",
    ][i], t)
t = rs(HEX, 32)
pos("api_key_generic", "http", f'curl -H "X-API-Key: {t}" https://api.acme.io/v1/export', t)
t = rs(HEX, 32)
pos("api_key_generic", "http", f"DATADOG_API_KEY={t}", t)
t = rs(ALNUM, 32)
pos("api_key_generic", "http", f"https://api.weather.example/v1/forecast?city=Paris&apikey={t}", t)
t = rs(ALNUM, 40)
pos("api_key_generic", "http", f'config.yaml:\n  api_key: "{t}"', t)
t = rs(ALNUM, 24)
pos("api_key_generic", "http", f"SECRET_KEY = '{t}'  # django settings", t)

for i in range(5):
    if i == 0:
        v = rs(LO + DIG, 32)
        pos("session_cookie", "http", f"Cookie: sessionid={v}; csrftoken={rs(ALNUM, 32)}", v)
    elif i == 1:
        v = "s%3A" + rs(B64URL, 32) + "." + rs(B64URL, 43)
        pos("session_cookie", "http", f"Set-Cookie: connect.sid={v}; Path=/; HttpOnly", v)
    elif i == 2:
        v = rs(LO + DIG, 26)
        pos("session_cookie", "http", f"curl -b 'PHPSESSID={v}' https://shop.acme.io/admin/orders", v)
    elif i == 3:
        v = rs(B64URL, 120)
        pos("session_cookie", "http", f"document.cookie = \"_session_id={v}\"", v)
    else:
        v = rs(HEX.upper(), 32)
        pos("session_cookie", "http", f"Cookie: JSESSIONID={v}; Path=/app", v)

# -- e-mail ----------------------------------------------------------------------

for e, txt, lang in [
    ("wei.zhang@acme-corp.cn", "git config user.email wei.zhang@acme-corp.cn", None),
    ("j.smith+ci@gmail.com", "Author: John Smith <j.smith+ci@gmail.com>", None),
    ("anna.berg@fastmail.se", "Contact anna.berg@fastmail.se if the import breaks again.", None),
    ("k.tanaka@example-corp.jp", "担当者: k.tanaka@example-corp.jp までご連絡ください", "ja"),
    ("o.petrenko@ukr.net", "[ERROR] SMTP 550 mailbox unavailable for o.petrenko@ukr.net", None),
    ("张伟@公司.中国", "请把报告发到 张伟@公司.中国", "zh"),
    ("müller@beispiel.de", "Bitte an müller@beispiel.de weiterleiten.", "de"),
    ("δοκιμή@παράδειγμα.ελ", "Email: δοκιμή@παράδειγμα.ελ", "el"),
    ("пользователь@почта.рф", "отправил логи на пользователь@почта.рф", "ru"),
    ("minsu.kim@naver.com", "문의: minsu.kim@naver.com 으로 연락 주세요", "ko"),
]:
    pos("email", "contact", txt, e, lang=lang)

# -- phone numbers -----------------------------------------------------------------

PHONES = [
    ("phone_cn_mobile", "13812345678".replace("12345678", rs(DIG, 8)), "客户电话 {}，下午回电", "zh"),
    ("phone_cn_mobile", "+86 139 " + rs(DIG, 4) + " " + rs(DIG, 4), "Call me on {} after 6pm", None),
    ("phone_cn_mobile", "186-" + rs(DIG, 4) + "-" + rs(DIG, 4), "联系人：王芳 {}", "zh"),
    ("phone_cn_mobile", "+8615" + R.choice("0123789") + rs(DIG, 8), "sms sent to={} status=delivered", None),
    ("phone_cn_mobile", "177" + rs(DIG, 8), "我的手机号是{}，有问题随时联系", "zh"),
    ("phone_cn_landline", "010-6" + rs(DIG, 7), "北京办公室电话：{}", "zh"),
    ("phone_cn_landline", "(021) 5" + rs(DIG, 3) + " " + rs(DIG, 4), "上海前台 {}", "zh"),
    ("phone_cn_landline", "+86 755 8" + rs(DIG, 3) + " " + rs(DIG, 4), "Shenzhen office: {}", None),
    ("phone_cn_landline", "0571-8" + rs(DIG, 7), "杭州仓库 {} 转 802", "zh"),
    ("phone_hk", "+852 9" + rs(DIG, 3) + " " + rs(DIG, 4), "HK contact {}", None),
    ("phone_hk", "6" + rs(DIG, 3) + " " + rs(DIG, 4), "香港同事電話 {}", "zh-Hant"),
    ("phone_hk", "+852-2" + rs(DIG, 3) + "-" + rs(DIG, 4), "Central office tel: {}", None),
    ("phone_tw", "0912-" + rs(DIG, 3) + "-" + rs(DIG, 3), "台灣手機 {}", "zh-Hant"),
    ("phone_tw", "+886 9" + rs(DIG, 2) + " " + rs(DIG, 3) + " " + rs(DIG, 3), "Taipei support line {}", None),
    ("phone_tw", "(02) 2" + rs(DIG, 3) + "-" + rs(DIG, 4), "台北辦公室 {}", "zh-Hant"),
    ("phone_jp", "090-" + rs(DIG, 4) + "-" + rs(DIG, 4), "携帯: {}", "ja"),
    ("phone_jp", "+81 80 " + rs(DIG, 4) + " " + rs(DIG, 4), "Tokyo on-call {}", None),
    ("phone_jp", "03-" + rs(DIG, 4) + "-" + rs(DIG, 4), "東京オフィス 電話 {}", "ja"),
    ("phone_jp", "07012345678".replace("12345678", rs(DIG, 8)), "電話番号は{}です", "ja"),
    ("phone_kr", "010-" + rs(DIG, 4) + "-" + rs(DIG, 4), "연락처: {}", "ko"),
    ("phone_kr", "+82 10 " + rs(DIG, 4) + " " + rs(DIG, 4), "Seoul contact {}", None),
    ("phone_kr", "02-" + rs(DIG, 3) + "-" + rs(DIG, 4), "서울 사무실 {}", "ko"),
    ("phone_us", "(415) 86" + rs(DIG, 1) + "-" + rs(DIG, 4), "Call Dana at {} re: the outage", None),
    ("phone_us", "+1 212 73" + rs(DIG, 1) + " " + rs(DIG, 4), "on-call phone {}", None),
    ("phone_us", "646." + rs("2345678", 1) + rs(DIG, 2) + "." + rs(DIG, 4), "cell {}", None),
    ("phone_us", "+1720" + rs("2345678", 1) + rs(DIG, 6), "twilio: sent to {} (queued)", None),
    ("phone_uk", "+44 7911 " + rs(DIG, 6), "UK mobile {}", None),
    ("phone_uk", "07700 9" + rs(DIG, 5), "ring me on {}", None),
    ("phone_uk", "020 7946 " + rs(DIG, 4), "London desk {}", None),
    ("phone_de", "+49 151 " + rs(DIG, 8), "Handy: {}", "de"),
    ("phone_de", "030 " + rs(DIG, 8), "Büro Berlin Tel. {}", "de"),
    ("phone_de", "0176-" + rs(DIG, 8), "Rückruf unter {}", "de"),
    ("phone_fr", "+33 6 " + " ".join(rs(DIG, 2) for _ in range(4)), "Portable : {}", "fr"),
    ("phone_fr", "06 " + " ".join(rs(DIG, 2) for _ in range(4)), "appelle-moi au {}", "fr"),
    ("phone_fr", "01." + ".".join(rs(DIG, 2) for _ in range(4)), "Standard Paris {}", "fr"),
    ("phone_it", "+39 3" + rs(DIG, 2) + " " + rs(DIG, 3) + " " + rs(DIG, 4), "cellulare {}", "it"),
    ("phone_it", "3" + rs(DIG, 2) + " " + rs(DIG, 7), "chiamami al {}", "it"),
    ("phone_es", "+34 6" + rs(DIG, 2) + " " + rs(DIG, 2) + " " + rs(DIG, 2) + " " + rs(DIG, 2), "móvil {}", "es"),
    ("phone_es", "6" + rs(DIG, 2) + " " + rs(DIG, 3) + " " + rs(DIG, 3), "llámame al {}", "es"),
    ("phone_nl", "+31 6 " + rs(DIG, 8), "mobiel {}", "nl"),
    ("phone_nl", "06-" + rs(DIG, 8), "bel me op {}", "nl"),
]
for cat, num, tmpl, lang in PHONES:
    pos(cat, "contact", tmpl.format(num), num, lang=lang)

# -- national ids -------------------------------------------------------------------

ids = [
    (cn_id("110105", "19850312", "453"), "身份证号：{}", "zh"),
    (cn_id("440305", "19920708", "221"), "passenger id_card={} name=LI Na", None),
    (cn_id("310115", "20010101", "87" + "1"), "实名认证失败，证件号 {} 与姓名不符", "zh"),
]
for v, tmpl, lang in ids:
    pos("cn_resident_id", "national_id", tmpl.format(v), v, lang=lang)
# one ending in X, one written with spaces, one 6-8-4 spaced
seq = 100
while True:
    v = cn_id("320102", "19780415", f"{seq:03d}")
    if v.endswith("X"):
        break
    seq += 1
pos("cn_resident_id", "national_id", f"证件号码 {v}（末位是X）", v, lang="zh")
v = cn_id("510104", "19900920", "332")
sp = f"{v[:6]} {v[6:14]} {v[14:]}"
pos("cn_resident_id", "national_id", f"身份证 {sp}", sp, lang="zh")
v = cn_id("420106", "19871123", "514")
sp = f"{v[:3]} {v[3:6]} {v[6:10]} {v[10:14]} {v[14:]}"
pos("cn_resident_id", "national_id", f"ID no. {sp} (copied from the form)", sp)

for pre, dig, tmpl, lang in [("A", "123456", "HKID: {}", None), ("K", "582917", "香港身份證號碼 {}", "zh-Hant"), ("Y", "403215", "applicant hkid={}", None), ("XA", "774120", "HKID {} (2-letter prefix)", None)]:
    v = hkid(pre, dig)
    pos("hkid", "national_id", tmpl.format(v), v, lang=lang)
v = hkid("C", "668203")
spv = v.replace("(", " (")
pos("hkid", "national_id", f"身份證 {spv}", spv, lang="zh-Hant")

for letter, body, tmpl, lang in [("A", "1" + "2345678", "身分證字號 {}", "zh-Hant"), ("F", "2" + "1739405", "tw_id={} verified", None), ("R", "1" + "0829316", "台灣身分證：{}", "zh-Hant")]:
    v = tw_id(letter, body)
    pos("tw_id", "national_id", tmpl.format(v), v, lang=lang)

for i in range(3):
    v = my_number(rs(DIG, 11))
    fmt = [v, f"{v[:4]} {v[4:8]} {v[8:]}", f"{v[:4]}-{v[4:8]}-{v[8:]}"][i]
    pos("jp_my_number", "national_id", ["マイナンバー: {}", "個人番号 {} を入力", "My Number {} on the form"][i].format(fmt), fmt, lang=None if i == 2 else "ja")

for body, tmpl, lang in [("850312" + "1" + "23456", "주민등록번호 {}", "ko"), ("920708" + "2" + "04518", "RRN: {}", None), ("010101" + "3" + "11223", "주민번호 {} 확인 필요", "ko")]:
    v = kr_rrn(body)
    fv = f"{v[:6]}-{v[6:]}"
    pos("kr_rrn", "national_id", tmpl.format(fv), fv, lang=lang)

for v, tmpl in [("524-71-3382", "SSN: {}"), ("219-09-9999".replace("9999", "4417"), "applicant ssn={} dob=1981-03-02"), ("372 84 1156", "Social Security No. {}"), ("601223918", "ssn {} failed verification")]:
    pos("us_ssn", "national_id", tmpl.format(v), v)

for v, tmpl in [("AB 12 34 56 C", "NI number: {}"), ("JG103759A", "nino={} payroll ok"), ("PN 48 27 91 B", "National Insurance no. {}")]:
    pos("uk_nino", "national_id", tmpl.format(v), v)

# -- IBAN ---------------------------------------------------------------------------

de = iban("DE", "37040044" + "0532013000")
de2 = iban("DE", "50010517" + rs(DIG, 10))
gb = iban("GB", "NWBK" + "601613" + rs(DIG, 8))
gb2 = iban("GB", "BARC" + "200000" + rs(DIG, 8))
fr_bank, fr_branch, fr_acct = "20041", "01005", "0" + rs(DIG, 10)
fr = iban("FR", f"{fr_bank}{fr_branch}{fr_acct}{fr_rib_key(fr_bank, fr_branch, fr_acct):02d}")
nl = iban("NL", "ABNA" + nl_account())
nl2 = iban("NL", "INGB" + nl_account())
for v, tmpl, lang in [
    (de, "Bitte überweisen an IBAN {}", "de"),
    (spaced4(de2), "IBAN: {} (Sparkasse)", None),
    (gb, "payee iban={} bic=NWBKGB2L", None),
    (spaced4(gb2), "Account: {}", None),
    (fr, "IBAN {} pour le remboursement", "fr"),
    (spaced4(fr), "RIB: {}", "fr"),
    (nl, "iban {} on the invoice", None),
    (spaced4(nl2), "Rekeningnummer {}", "nl"),
]:
    assert iban_ok(v), v
    pos("iban", "financial", tmpl.format(v), v, lang=lang)

# -- payment cards ------------------------------------------------------------------


def card(prefix, length):
    return luhn_complete(prefix + rs(DIG, length - len(prefix) - 1))


visa = card("4539", 16)
mc = card("5425", 16)
amex = card("3714", 15)
up = card("6228", 16)
visa2 = card("4716", 16)
mc2 = card("2221", 16)
for v, tmpl in [
    (visa, "card_number={} exp=04/27"),
    (" ".join(mc[i : i + 4] for i in range(0, 16, 4)), "Card: {} CVV 123"),
    (f"{amex[:4]} {amex[4:10]} {amex[10:]}", "Amex {}"),
    ("-".join(up[i : i + 4] for i in range(0, 16, 4)), "银联卡号 {}"),
    (visa2, "stripe test with real card {} declined"),
    ("-".join(mc2[i : i + 4] for i in range(0, 16, 4)), "paid with {}"),
]:
    assert luhn_ok(v), v
    pos("payment_card", "financial", tmpl.format(v), v, lang="zh" if "银联" in tmpl else None)

# -- passports ------------------------------------------------------------------------

for v, tmpl, cat, lang in [
    ("E" + rs(DIG, 8), "护照号码 {}", "passport_cn", "zh"),
    ("EA" + rs(DIG, 7), "passport no: {} (PRC)", "passport_cn", None),
    ("E " + rs(DIG, 4) + " " + rs(DIG, 4), "护照 {}", "passport_cn", "zh"),
    ("5" + rs(DIG, 8), "US passport number {}", "passport_us", None),
    ("A" + rs(DIG, 8), "passport={} nationality=USA", "passport_us", None),
    ("K" + rs(DIG, 8), "HKSAR passport {}", "passport_hk", None),
    ("H" + rs(DIG, 8), "香港特區護照號碼 {}", "passport_hk", "zh-Hant"),
]:
    pos(cat, "national_id", tmpl.format(v), v, lang=lang)

# -- network ----------------------------------------------------------------------

for v, tmpl in [
    ("10.42.7.19", "ssh deploy@{} 'tail -f /var/log/app.log'"),
    ("172.16.8.21", "upstream db at {}:5432 refused connection"),
    ("192.168.1.23", "my laptop is {} on the office wifi"),
    ("34.201.77.18", "sshd[2211]: Failed password for root from {} port 52314 ssh2"),
    ("81.169.145.94", "client_ip={} user_agent=Mozilla/5.0"),
    ("2a01:4f8:c17:2b3::1", "AAAA record points to {}"),
    ("fe80::1c2d:3e4f:5a6b:7c8d", "inet6 {} prefixlen 64 scopeid 0x20<link>"),
    ("240e:3b7:3272:d8d0:db09:c067:8d59:539e", "我家宽带 IPv6 是 {}"),
]:
    pos("ip_address", "network", tmpl.format(v), v, lang="zh" if "我家" in tmpl else None)

# -- home paths ----------------------------------------------------------------------

for user, tmpl in [
    ("jsmith", "FileNotFoundError: [Errno 2] No such file or directory: '/home/{}/projects/kb/data.csv'"),
    ("zhangwei", "  File \"/Users/{}/code/app/main.py\", line 42, in <module>"),
    ("Müller", "C:\\Users\\{}\\AppData\\Local\\Temp\\build.log"),
    ("annab", "cd /home/{}/.config/knowhub && ls"),
    ("tanaka.k", "/Users/{}/Library/Caches/pip"),
    ("dkowalski", "error: could not write /home/{}/.cargo/registry/cache"),
]:
    pos("home_path", "path", tmpl.format(user), user)

# ================================================================== benign

for _ in range(4):
    neg("git_sha", f"commit {rs(HEX, 40)} (HEAD -> main, origin/main)\nAuthor: CI Bot")
neg("git_sha", f"git checkout {rs(HEX, 7)} && cargo test")
neg("git_sha", f"Merge pull request #4411 from acme/fix-retry ({rs(HEX, 12)})")
neg("git_sha", f"HEAD is now at {rs(HEX, 7)} bump deps")
neg("git_sha", f"git cherry-pick {rs(HEX, 40)}")
neg("git_sha", f"rev = \"{rs(HEX, 40)}\"")
neg("git_sha", f"修复已合入 {rs(HEX, 8)}，请重新拉取", lang="zh")

import uuid as _uuid

for tmpl in ["request_id={} status=200 latency_ms=41", "Created volume pvc-{}", "trace {} span 7", "\"id\": \"{}\",", "job {} finished in 12.3s", "UPDATE items SET state='done' WHERE id='{}';", "correlation-id: {}", "任务 {} 已完成"]:
    neg("uuid", tmpl.format(_uuid.UUID(int=R.getrandbits(128), version=4)), lang="zh" if "任务" in tmpl else None)

neg("content_hash", f"{rs(HEX, 64)}  knowhub-0.9.2-x86_64-linux.tar.gz")
neg("content_hash", f"sha256sum model.onnx\n{rs(HEX, 64)}  model.onnx")
neg("content_hash", f"md5: {rs(HEX, 32)}")
neg("content_hash", f"ETag: \"{rs(HEX, 32)}\"")
neg("content_hash", f"cache key: v1-deps-{rs(HEX, 40)}")
neg("content_hash", f"sha1 {rs(HEX, 40)} differs from expected; re-downloading")
neg("content_hash", f"\"checksum\": \"sha256:{rs(HEX, 64)}\"")
neg("content_hash", f"blake3 hash of the chunk: {rs(HEX, 64)}")

neg("base64_nonsecret", f"echo {b64('hello world')} | base64 -d")
neg("base64_nonsecret", f"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"></svg>'
neg("base64_nonsecret", f"binaryData:\n  logo.svg: {b64(SVG)}")
neg("base64_nonsecret", "X-Request-Context: " + b64('{"region":"eu-west-1","tier":"free"}'))
neg("base64_nonsecret", "the payload decodes as JSON: " + b64('{"event":"push","ref":"refs/heads/main"}'))
neg("base64_nonsecret", f"Content-Transfer-Encoding: base64\n\n{b64('Build report: 412 tests passed, 0 failed.')}")
neg("base64_nonsecret", "cursor=" + b64url('{"offset":200,"limit":100}'))
neg("base64_nonsecret", f"font-face src: url(data:font/woff2;base64,d09GMgABAAAAAAnYAA0AAAAAE8QAAAmAAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAGiAbHBwGYACBGBEICp)")

neg("placeholder_key", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE")
neg("placeholder_key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
neg("placeholder_key", "export GITHUB_TOKEN=<your-token>")
neg("placeholder_key", "Authorization: Bearer ${TOKEN}")
neg("placeholder_key", "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxx")
neg("placeholder_key", "api_key: YOUR_API_KEY_HERE")
neg("placeholder_key", "STRIPE_SECRET_KEY=sk_test_...")
neg("placeholder_key", "token: ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")
neg("placeholder_key", "SLACK_BOT_TOKEN=xoxb-your-bot-token")
neg("placeholder_key", "password: ********")
neg("placeholder_key", "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME")
neg("placeholder_key", "Set `ANTHROPIC_API_KEY` to your key (starts with `sk-ant-`).")
neg("placeholder_key", "curl -H \"Authorization: token $GH_TOKEN\" https://api.github.com/user")
neg("placeholder_key", "client_secret: \"<client-secret>\"")
neg("placeholder_key", "FR7600000000000000000000000 placeholder")

neg("env_reference", "password: ${DB_PASSWORD}")
neg("env_reference", "PGPASSWORD=$PGPASSWORD psql -h db -U app")
neg("env_reference", "echo \"$REGISTRY_TOKEN\" | docker login ghcr.io -u acme --password-stdin")
neg("env_reference", "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-creds\n        key: password")
neg("env_reference", "password = os.environ[\"DB_PASSWORD\"]")
neg("env_reference", "token: {{ secrets.NPM_TOKEN }}")
neg("env_reference", "vault kv get -field=password secret/data/prod/db")
neg("env_reference", "DATABASE_URL=postgres://app:${POSTGRES_PASSWORD}@db:5432/app")
neg("env_reference", "redis-cli -a \"$REDIS_PASSWORD\" ping")
neg("env_reference", "mysql -u root -p   # prompts for the password")

for v in ["knowhub 0.9.2 (rustc 1.82.0)", "node v20.11.1, npm 10.2.4", "Windows 10.0.19045.3693", "Chrome/120.0.6099.109 Safari/537.36", "upgraded openssl 3.0.13 -> 3.0.15", "python 3.11.7 / torch 2.3.1+cu121", "kernel 6.5.0-1024-azure", "image tag 2024.11.27-r3", "PostgreSQL 16.4 on x86_64-pc-linux-gnu", "版本 2.3.1 已发布", ]:
    neg("version_number", v, lang="zh" if "版本" in v else None)

for v in ["build #20241127.4 succeeded", "ts=1732694400 level=info msg=started", "2024-11-27T10:15:30.123Z INFO server listening", "created_at: 1732694400123", "Nov 27 10:15:30 host kernel: [12345.678901] eth0: link up", "epoch 17 step 13800 loss 0.412", "run 8812345 exited 0", "duration=1395.441ms", "2024年11月27日 10时15分 部署完成", "2024/11/27 10:15:30 タスク完了"]:
    neg("timestamp_build", v, lang="zh" if "部署" in v else ("ja" if "タスク" in v else None))

for v in ["listen 0.0.0.0:8080", "ports:\n  - \"5432:5432\"\n  - \"6379:6379\"", "EXPOSE 3000 9229", "--max-connections 4096 --timeout 30000", "ulimit -n 1048576"]:
    neg("port_config", v)

# invalid-checksum look-alikes
for prefix in ["4539", "5425", "4716", "6228"]:
    c = card(prefix, 16)
    bad = c[:-1] + str((int(c[-1]) + 3) % 10)
    assert not luhn_ok(bad)
    neg("invalid_card", f"order reference {bad} shipped" if prefix != "6228" else f"tracking number {bad}")
c = card("5425", 16)
bad = c[:-1] + str((int(c[-1]) + 5) % 10)
neg("invalid_card", "test number " + " ".join(bad[i : i + 4] for i in range(0, 16, 4)) + " (fails Luhn)")
neg("invalid_card", "row 1234567812345678 in the sample table")

for v in [de, gb, nl]:
    bad = v[:2] + f"{(int(v[2:4]) + 1) % 100:02d}" + v[4:]
    assert not iban_ok(bad)
    neg("invalid_iban", f"account ref {bad}")
neg("invalid_iban", "DE00 1234 5678 9012 3456 78 in the spec example")
assert not iban_ok("DE00 1234 5678 9012 3456 78")
# All zeros: a placeholder, though its check digits are valid.
assert iban_ok("FR7600000000000000000000000")

v = cn_id("110105", "19850312", "453")
bad = v[:-1] + ("1" if v[-1] != "1" else "2")
neg("invalid_national_id", f"序列号 {bad}", lang="zh")
v = hkid("A", "123456")
bad = v[:-2] + ("1" if v[-2] != "1" else "2") + ")"
neg("invalid_national_id", f"part no. {bad}")
v = tw_id("A", "12345678")
bad = v[:-1] + str((int(v[-1]) + 1) % 10)
neg("invalid_national_id", f"SKU {bad}")
v = my_number("12345678901")
bad = v[:-1] + str((int(v[-1]) + 1) % 10)
neg("invalid_national_id", f"注文番号 {bad}", lang="ja")
v = kr_rrn("850312123456")
bad = v[:-1] + str((int(v[-1]) + 1) % 10)
neg("invalid_national_id", f"batch {bad[:6]}-{bad[6:]}")
neg("invalid_national_id", "SSN 000-12-3456 is not valid (area 000)")
neg("invalid_national_id", "ssn field rejected: 666-45-1234")
neg("invalid_national_id", "身份证号格式示例：110101YYYYMMDDXXXX", lang="zh")

for v in ["order_id=100234567891 amount=49.90", "pid 2841137 killed (OOM)", "inode 13802214457 on /dev/sda1", "Transferred 13812345678 bytes in 41s", "tx hash 0x9f2c...e1 block 19876543", "ticket #4412381 closed", "wrote 15900001234 rows to parquet", "订单号 202411270001234", "发票号码 04403190011", "worker-17 offset 10123456789", "ISBN 978-3-16-148410-0"]:
    neg("numeric_id", v, lang="zh" if ("订单" in v or "发票" in v) else None)

for v in ["pod/web-7d9f8c6b5-x2klp restarted", "kubectl logs deploy/knowhub-api -c api --since=1h", "replicaset.apps/worker-5c8d7f9b4d scaled to 3", "node ip-10-0-3-17.eu-west-1.compute.internal Ready", "secret/db-creds created", "configmap/app-config-h2k9m7t4bc unchanged"]:
    neg("k8s_name", v)

for v in [f"docker pull nginx@sha256:{rs(HEX, 64)}", f"Digest: sha256:{rs(HEX, 64)}", f"image: ghcr.io/acme/api@sha256:{rs(HEX, 64)}", f"Status: Downloaded newer image for redis:7.2 (sha256:{rs(HEX, 12)})", f"FROM python:3.11-slim@sha256:{rs(HEX, 64)}"]:
    neg("docker_digest", v)

for _ in range(3):
    neg("npm_integrity", f"\"integrity\": \"sha512-{rs(B64, 86)}==\",")
neg("npm_integrity", f"<script src=\"https://cdn.jsdelivr.net/npm/chart.js@4.4.0\" integrity=\"sha384-{rs(B64, 64)}\" crossorigin=\"anonymous\"></script>")
neg("npm_integrity", f"resolved \"https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#{rs(HEX, 40)}\"")

neg("public_key", f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(B64, 43)} deploy@ci")
neg("public_key", f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{rs(B64, 200)} builder")
neg("public_key", f"256 SHA256:{rs(B64, 43)} github.com (ED25519)")
neg("public_key", f"-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{rs(B64, 20)}\n{rs(B64, 64)}\n-----END PUBLIC KEY-----")
neg("public_key", f"-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE{rs(B64, 44)}\n{rs(B64, 64)}\n-----END CERTIFICATE-----")
neg("public_key", "SHA256 Fingerprint=" + ":".join(rs("0123456789ABCDEF", 2) for _ in range(32)))
neg("public_key", f"gpg: Signature made Wed 27 Nov 2024 using RSA key {rs('0123456789ABCDEF', 40)}")
neg("public_key", f"The key fingerprint is:\nSHA256:{rs(B64, 43)} ci@runner")

for v in ["curl http://127.0.0.1:8080/healthz", "bind 0.0.0.0", "server listening on [::1]:3000", "example: ping 192.0.2.10", "docs use 203.0.113.5 and 198.51.100.7", "AAAA 2001:db8::1 (documentation prefix)", "localhost:5432 accepting connections", "net.ipv4.ip_forward = 1", "resolv.conf: nameserver 8.8.8.8", "version 1.2.3.4 of the driver"]:
    neg("local_or_doc_ip", v)

for v in ["/home/runner/work/knowhub/knowhub/target", "/home/ubuntu/.cache/pip", "C:\\Users\\Public\\Documents", "/home/node/app/node_modules", "/root/.cargo/bin/cargo", "/Users/Shared/builds", "~/.config/knowhub/config.toml", "$HOME/.ssh/config"]:
    neg("generic_path", v)

for v in ["git@github.com:acme/knowhub.git", "npm i @types/node@20.11.5", "pip install torch==2.3.1 @ https://download.pytorch.org/whl/cu121", "@app.route('/health')", "docker pull redis@sha256:0f3c", "user@host:~$ ls", "ssh -T git@gitlab.com", "python -m pip install -e .[dev]", "@Override public void run()", "@scope/pkg@^1.2.0 requires peer react@>=18"]:
    neg("email_like", v)

for v in ["noreply@example.com in the docs", "send to user@example.org (placeholder)"]:
    neg("doc_email", v)

for v in ["postgres://localhost:5432/app", "redis://redis:6379/0", "mongodb://mongo:27017/test", "amqp://rabbitmq:5672", "https://api.github.com/repos/acme/app/pulls?state=open&per_page=100", "jdbc:postgresql://db:5432/orders", "https://registry.npmjs.org/lodash"]:
    neg("url_no_creds", v)

for v in [
    "Rotated the AWS secret key after the leak; new one lives in Vault.",
    "The token expired, so the client got 401 until we refreshed it.",
    "Never paste private keys into chat - use the secrets manager.",
    "Set password authentication to scram-sha-256 in pg_hba.conf.",
    "Error: password authentication failed for user \"app\"",
    "The API key must be passed in the X-API-Key header.",
    "GitHub tokens start with ghp_ for classic PATs.",
    "密码错误次数过多，账号已锁定 30 分钟",
    "パスワードの有効期限が切れています",
    "토큰이 만료되었습니다. 다시 로그인하세요.",
]:
    neg("prose", v, lang="zh" if "密码" in v else ("ja" if "パスワード" in v else ("ko" if "토큰" in v else None)))

for v in [
    "thread 'main' panicked at src/store.rs:412:17: called `Option::unwrap()` on a `None` value",
    "Segmentation fault at address 0x00007ffd5c3e2a10",
    "<__main__.Worker object at 0x7f3a2c1d4e50>",
    "#3 0x000055d4c2a1b3f4 in tokio::runtime::task::raw::poll",
    "java.lang.NullPointerException\n\tat com.acme.Order.total(Order.java:88)",
]:
    neg("stack_trace", v)

for v in ["embedding[0:8] = [0.0132, -0.0411, 0.0874, 0.1203, -0.0029, 0.0551, -0.0712, 0.0318]", "lat 52.5200066, lon 13.404954", "p50=12.4ms p95=41.8ms p99=88.1ms", "nDCG@10 0.6831 MRR 0.7120"]:
    neg("numbers", v)

for v, lang in [
    ("部署到 k8s 集群后，pod 重启了 3 次，镜像版本 v2.4.1", "zh"),
    ("エラーコード 0x80070005、ビルド番号 22631.4460", "ja"),
    ("빌드 번호 20241127-3, 커밋 a1b2c3d", "ko"),
    ("Die Version 3.12.1 behebt den Fehler in Zeile 412.", "de"),
    ("La commande 42 a été expédiée le 27/11/2024.", "fr"),
    ("El pedido 2024-000123 está en camino.", "es"),
    ("测试环境端口 8080，数据库端口 5432", "zh"),
    ("共处理 13800 条记录，耗时 4.2 秒", "zh"),
]:
    neg("multilingual_text", v, lang=lang)


def main():
    counts = {}
    out = []
    for c in CASES:
        prefix = "s" if c["kind"] == "secret" else "b"
        n = counts.get((prefix, c["category"]), 0) + 1
        counts[(prefix, c["category"])] = n
        row = {"id": f"{prefix}-{c['category']}-{n:02d}"}
        row.update(c)
        out.append(row)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "heldout.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for row in out:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    pos_n = sum(1 for r in out if r["kind"] == "secret")
    cats = {r["category"] for r in out if r["kind"] == "secret"}
    print(f"{pos_n} secret cases in {len(cats)} categories, {len(out) - pos_n} benign cases -> {path}")


if __name__ == "__main__":
    main()
