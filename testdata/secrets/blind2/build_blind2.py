#!/usr/bin/env python3
"""Writes blind2.jsonl: a second held-out set of secrets, personal data and benign look-alikes.

Written without sight of the redaction rules. Every value is synthetic, drawn from a seeded
generator in the shape each provider or authority publishes; numbers that carry a check digit are
computed valid for secrets and made invalid for look-alikes. Deterministic:
    python3 testdata/secrets/blind2/build_blind2.py
"""
import base64
import json
import os
import random
import string

R = random.Random(20261127)
UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
HEX = "0123456789abcdef"
ALNUM = UP + LO + DG
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = UP + "234567"

CASES = []
COUNTERS = {}


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def add(kind, category, family, text, secret=None, lang=None):
    n = COUNTERS.get((kind, category), 0) + 1
    COUNTERS[(kind, category)] = n
    cid = f"{'s' if kind == 'secret' else 'b'}-{category}-{n:02d}"
    case = {"id": cid, "kind": kind, "category": category, "family": family, "text": text}
    if kind == "secret":
        assert secret and secret in text, (cid, secret, text)
        case["secret"] = secret
    if lang and lang != "en":
        case["lang"] = lang
    CASES.append(case)


def S(category, family, text, secret, lang=None):
    add("secret", category, family, text, secret, lang)


def B(category, text, lang=None):
    add("benign", category, "benign", text, None, lang)


# ---------------------------------------------------------------- check digits

def luhn_digit(body):
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(num):
    return luhn_digit(num[:-1]) == num[-1]


def card(prefix, length):
    body = prefix + rs(DG, length - len(prefix) - 1)
    return body + luhn_digit(body)


def bad_last(num, ok):
    """Changes the last digit until the check fails."""
    for d in "1357924680":
        cand = num[:-1] + d
        if cand != num and not ok(cand):
            return cand
    raise AssertionError(num)


def iban_value(s):
    return int("".join(str(int(c, 36)) for c in s))


def iban(country, bban):
    chk = 98 - iban_value(bban + country + "00") % 97
    return f"{country}{chk:02d}{bban}"


def iban_ok(s):
    s = s.replace(" ", "")
    return iban_value(s[4:] + s[:4]) % 97 == 1


def spaced(s, n=4):
    return " ".join(s[i:i + n] for i in range(0, len(s), n))


def fr_rib_key(bank, branch, account):
    return 97 - (89 * int(bank) + 15 * int(branch) + 3 * int(account)) % 97


def es_dc(digits):
    w = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]
    d = 11 - sum(int(a) * b for a, b in zip(digits, w)) % 11
    return {11: 0, 10: 1}.get(d, d)


def cn_id(area, birth):
    body = area + birth + rs(DG, 3)
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body + "10X98765432"[sum(int(a) * b for a, b in zip(body, w)) % 11]


def cn_id_ok(s):
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return "10X98765432"[sum(int(a) * b for a, b in zip(s[:17], w)) % 11] == s[17]


def hkid_check(prefix, digits):
    vals = []
    p = prefix if len(prefix) == 2 else " " + prefix
    for c in p:
        vals.append(36 if c == " " else ord(c) - 55)
    vals += [int(d) for d in digits]
    total = sum(v * w for v, w in zip(vals, range(9, 1, -1)))
    c = (11 - total % 11) % 11
    return "A" if c == 10 else str(c)


TW_LETTERS = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36)))


def tw_check(letter, digits8):
    v = TW_LETTERS[letter]
    total = v // 10 + (v % 10) * 9 + sum(int(d) * w for d, w in zip(digits8, range(8, 0, -1)))
    return str((10 - total % 10) % 10)


def tw_id(letter=None, sex=None):
    letter = letter or R.choice("ABCDEFHKMNPQTUV")
    d8 = (sex or R.choice("12")) + rs(DG, 7)
    return letter + d8 + tw_check(letter, d8)


def my_number():
    body = rs(DG, 11)
    total = 0
    for n in range(1, 12):
        p = int(body[11 - n])
        q = n + 1 if n <= 6 else n - 5
        total += p * q
    r = total % 11
    return body + str(0 if r <= 1 else 11 - r)


def my_number_ok(s):
    total = sum(int(s[11 - n]) * (n + 1 if n <= 6 else n - 5) for n in range(1, 12))
    r = total % 11
    return str(0 if r <= 1 else 11 - r) == s[11]


def rrn(yymmdd, g):
    body = yymmdd + g + rs(DG, 5)
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    c = (11 - sum(int(a) * b for a, b in zip(body, w)) % 11) % 10
    return f"{body[:6]}-{body[6:]}{c}"


def rrn_ok(s):
    d = s.replace("-", "")
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    return (11 - sum(int(a) * b for a, b in zip(d, w)) % 11) % 10 == int(d[12])


def ssn():
    while True:
        a = R.randint(1, 899)
        if a != 666:
            break
    return f"{a:03d}-{R.randint(1, 99):02d}-{R.randint(1, 9999):04d}"


def nino():
    first = [c for c in UP if c not in "DFIQUV"]
    second = [c for c in UP if c not in "DFIQUVO"]
    while True:
        p = R.choice(first) + R.choice(second)
        if p not in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ", "QQ", "AB"):
            break
    return p, rs(DG, 6), R.choice("ABCD")


def dni():
    n = R.randint(10000000, 99999999)
    return f"{n}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}"


def nir():
    body = f"{R.choice('12')}{R.randint(50, 99):02d}{R.randint(1, 12):02d}{R.randint(1, 95):02d}{R.randint(1, 999):03d}{R.randint(1, 999):03d}"
    key = 97 - int(body) % 97
    return body, f"{key:02d}"


def bsn():
    while True:
        d = rs(DG, 8)
        if d[0] == "0":
            continue
        s = sum(int(x) * w for x, w in zip(d, range(9, 1, -1)))
        last = s % 11
        if last < 10:
            return d + str(last)


def nric(prefix="S"):
    d = rs(DG, 7)
    s = sum(int(x) * w for x, w in zip(d, [2, 7, 6, 5, 4, 3, 2]))
    if prefix in "TG":
        s += 4
    table = "JZIHGFEDCBA" if prefix in "ST" else "XWUTRQPNMLK"
    return prefix + d + table[s % 11]


def mrz_check(s):
    total = 0
    for i, c in enumerate(s):
        v = 0 if c == "<" else int(c) if c.isdigit() else ord(c) - 55
        total += v * [7, 3, 1][i % 3]
    return str(total % 10)


def mrz_line2(number, nat, dob, sex, exp):
    num = number.ljust(9, "<")
    pers = "<" * 14
    parts = num + mrz_check(num) + nat + dob + mrz_check(dob) + sex + exp + mrz_check(exp) + pers + mrz_check(pers)
    comp = num + mrz_check(num) + dob + mrz_check(dob) + exp + mrz_check(exp) + pers + mrz_check(pers)
    return parts + mrz_check(comp)


# ---------------------------------------------------------------- token shapes

def jwt(payload):
    enc = lambda d: base64.urlsafe_b64encode(json.dumps(d, separators=(",", ":")).encode()).decode().rstrip("=")
    return enc({"alg": R.choice(["HS256", "RS256"]), "typ": "JWT"}) + "." + enc(payload) + "." + rs(B64URL, 43)


def b64body(prefix, nlines, width=64):
    raw = prefix + rs(B64, width * nlines - len(prefix))
    return [raw[i:i + width] for i in range(0, len(raw), width)]


def pw():
    """A password as people make them."""
    words = ["Sunflower", "tiger", "Matrix", "Koala", "river", "Dragon", "Nebula", "pepper",
             "Falcon", "winter", "Orchid", "lantern", "Cobalt", "mango", "Harbor", "quartz"]
    style = R.randrange(4)
    if style == 0:
        return R.choice(words) + str(R.randint(10, 9999)) + R.choice("!@#$%&*?")
    if style == 1:
        return rs(ALNUM, R.randint(12, 20))
    if style == 2:
        return R.choice(words).lower() + R.choice("-_.") + R.choice(words) + R.choice("!#%") + str(R.randint(1, 99))
    return rs(ALNUM + "!#%^*", R.randint(10, 16))


def urlpw():
    return R.choice(["Sunflower", "Koala", "Nebula", "Falcon", "Cobalt"]) + str(R.randint(100, 9999)) + rs(LO + DG, 4)


def ip_public():
    while True:
        a = R.randint(1, 223)
        if a not in (10, 100, 127, 169, 172, 192, 198, 203, 0):
            return f"{a}.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(1, 254)}"


def digits_phone(n):
    return rs(DG, n)


# =============================================================== SECRETS
# ---- cloud
for t in [
    "export AWS_ACCESS_KEY_ID={v}",
    "botocore.exceptions.ClientError: An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid. key={v}",
    '{{"Version":1,"AccessKeyId":"{v}","Expiration":"2026-11-27T09:14:03Z"}}',
    "我把 access key {v} 发给你了，记得用完就删",
    "aws configure set aws_access_key_id {v} --profile staging",
]:
    v = R.choice(["AKIA", "AKIA", "ASIA"]) + rs(UP + "234567", 16)
    S("aws_access_key_id", "cloud", t.format(v=v), v, "zh" if "我" in t else None)

for t, lang in [
    ("[prod-readonly]\naws_secret_access_key = {v}\nregion = eu-central-1", None),
    ("s3 = boto3.client('s3', aws_secret_access_key=\"{v}\")", None),
    ("AWS_SECRET_ACCESS_KEY: {v}", None),
    ("Das Secret ist {v} – bitte nicht ins Repo committen.", "de"),
    ("secretAccessKey: '{v}',  // TODO move to env", None),
]:
    v = rs(ALNUM + "/+", 40)
    S("aws_secret_access_key", "cloud", t.format(v=v), v, lang)

for t in [
    "export AWS_SESSION_TOKEN=\"{v}\"",
    "aws_session_token={v}",
]:
    v = "IQoJb3JpZ2luX2VjE" + rs(ALNUM + "/+", 180)
    S("aws_session_token", "cloud", t.format(v=v), v)

for i in range(3):
    body = b64body("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 6)
    joined = "\\n".join(body)
    pkid = rs(HEX, 40)
    txt = ('{\n  "type": "service_account",\n  "project_id": "ledger-sync-' + rs(DG, 6) + '",\n'
           f'  "private_key_id": "{pkid}",\n'
           f'  "private_key": "-----BEGIN PRIVATE KEY-----\\n{joined}\\n-----END PRIVATE KEY-----\\n",\n'
           '  "client_email": "uploader@ledger-sync.iam.gserviceaccount.com"\n}')
    S("gcp_service_account_key", "cloud", txt, joined)

for t, lang in [
    ("curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Shibuya&key={v}'", None),
    ("GOOGLE_API_KEY={v}", None),
    ("Gemini のキーは {v} です。使い終わったら無効化してください。", "ja"),
]:
    v = "AIza" + rs(B64URL, 35)
    S("gcp_api_key", "cloud", t.format(v=v), v, lang)

for t in [
    '{{"web":{{"client_id":"{cid}.apps.googleusercontent.com","client_secret":"{v}","redirect_uris":["http://localhost:8080/cb"]}}}}',
    "OAUTH_CLIENT_SECRET={v}",
]:
    v = "GOCSPX-" + rs(B64URL, 28)
    S("google_oauth_client_secret", "cloud", t.format(v=v, cid=rs(DG, 12) + "-" + rs(LO + DG, 32)), v)

for t in [
    "DefaultEndpointsProtocol=https;AccountName=stlogsweu01;AccountKey={v};EndpointSuffix=core.windows.net",
    "az storage blob upload --account-name backupsprd --account-key \"{v}\" -c dumps -f db.bak",
    "storage_key = \"{v}\"",
]:
    v = rs(ALNUM + "/+", 86) + "=="
    S("azure_storage_key", "cloud", t.format(v=v), v)

for t in [
    "GET https://stmedia02.blob.core.windows.net/uploads/report.pdf?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&st=2026-11-26T00:00:00Z&spr=https&sig={v}",
    "azcopy copy ./out 'https://archv.blob.core.windows.net/c1?sp=racwdl&st=2026-11-27T08:00:00Z&se=2026-11-28T08:00:00Z&sv=2022-11-02&sr=c&sig={v}' --recursive",
    "SAS_URL=https://q.queue.core.windows.net/jobs?sv=2021-06-08&sig={v}&se=2027-01-01",
]:
    v = rs(ALNUM, 40) + "%2B" + rs(ALNUM, 6) + "%3D"
    S("azure_sas", "cloud", t.format(v=v), v)

for t, lang in [
    ("AZURE_CLIENT_SECRET={v}", None),
    ("ClientSecretCredential(tenant_id=TENANT, client_id=\"5f0c2c1e-8a7b-4d4e-9c1d-2b7e3f0a9d11\", client_secret=\"{v}\")", None),
    ("Le secret client de l'application Entra est {v}, il expire en mars.", "fr"),
]:
    v = rs(ALNUM, 3) + "8Q~" + rs(ALNUM + "_.~-", 34)
    S("azure_ad_client_secret", "cloud", t.format(v=v), v, lang)

for t, lang in [
    ("ALIBABA_CLOUD_ACCESS_KEY_ID={v}", None),
    ("阿里云 AccessKey: {v} / Secret: 见钉钉私聊", "zh"),
]:
    v = "LTAI5t" + rs(ALNUM, 18)
    S("aliyun_access_key", "cloud", t.format(v=v), v, lang)

for t, lang in [
    ("tccli configure set secretId {v}", None),
    ("腾讯云 SecretId={v}", "zh"),
]:
    v = "AKID" + rs(ALNUM, 32)
    S("tencent_secret_id", "cloud", t.format(v=v), v, lang)

# ---- tokens
for t, lang in [
    ("git remote set-url origin https://x-access-token:{v}@github.com/acme/infra.git", None),
    ("GH_TOKEN={v} gh release create v2.4.0 dist/*", None),
    ("remote: Invalid username or password. (token {v} revoked?)", None),
    ("이 토큰 {v} 으로 CI에서 패키지를 올리면 됩니다", "ko"),
]:
    v = R.choice(["ghp_", "ghp_", "gho_", "ghs_"]) + rs(ALNUM, 36)
    S("github_token", "token", t.format(v=v), v, lang)

for t in [
    "export GITHUB_TOKEN={v}",
    "  token: {v}   # fine-grained, repo contents:write",
    "Authorization: token {v}",
]:
    v = "github_pat_" + rs(ALNUM, 22) + "_" + rs(ALNUM, 59)
    S("github_fine_grained", "token", t.format(v=v), v)

for t in [
    "curl --header \"PRIVATE-TOKEN: {v}\" https://gitlab.internal.corp/api/v4/projects",
    "CI_JOB_TOKEN_OVERRIDE={v}",
    "glab auth login --hostname gitlab.com --token {v}",
]:
    v = "glpat-" + rs(B64URL, 20)
    S("gitlab_token", "token", t.format(v=v), v)

for t in [
    "//registry.npmjs.org/:_authToken={v}",
    "NPM_TOKEN={v} npm publish --access public",
    "npm ERR! 403 Forbidden - PUT https://registry.npmjs.org/@acme%2fui - token {v} lacks publish rights",
]:
    v = "npm_" + rs(ALNUM, 36)
    S("npm_token", "token", t.format(v=v), v)

for t in [
    "[pypi]\n  username = __token__\n  password = {v}",
    "twine upload -u __token__ -p {v} dist/*",
]:
    v = "pypi-AgEIcHlwaS5vcmc" + rs(B64URL, 140)
    S("pypi_token", "token", t.format(v=v), v)

for t, lang in [
    ("echo {v} | docker login -u ci-bot --password-stdin", None),
    ("DOCKERHUB_TOKEN: {v}", None),
    ("Docker Hub の PAT は {v}（読み取り専用）", "ja"),
]:
    v = "dckr_pat_" + rs(B64URL, 27)
    S("dockerhub_pat", "token", t.format(v=v), v, lang)

for t, lang in [
    ("huggingface-cli login --token {v}", None),
    ("HF_TOKEN={v} python train.py --push_to_hub", None),
    ("用这个 token 下载 gated 模型：{v}", "zh"),
]:
    v = "hf_" + rs(UP + LO, 34)
    S("huggingface_token", "token", t.format(v=v), v, lang)

for t, lang in [
    ("SLACK_BOT_TOKEN=xoxb-{a}-{b}-{c}", None),
    ("client = WebClient(token=\"xoxp-{a}-{b}-{d}-{c}\")", None),
    ("El token de la app es xapp-1-A{e}-{a}-{f}, no lo compartas.", "es"),
]:
    a, b, d = rs(DG, 12), rs(DG, 13), rs(DG, 13)
    c, e, f = rs(ALNUM, 24), rs(UP + DG, 10), rs(HEX, 64)
    txt = t.format(a=a, b=b, c=c, d=d, e=e, f=f)
    v = txt[txt.index("xox") if "xox" in txt else txt.index("xapp"):].split('"')[0].split(",")[0]
    S("slack_token", "token", txt, v, lang)

for t in [
    "curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy ok\"}}' {v}",
    "alerting:\n  slack_url: {v}",
]:
    v = f"https://hooks.slack.com/services/T{rs(UP + DG, 10)}/B{rs(UP + DG, 10)}/{rs(ALNUM, 24)}"
    S("slack_webhook", "token", t.format(v=v), v)

for t in ["DISCORD_TOKEN={v}", "bot.run('{v}')"]:
    uid = str(R.randint(10 ** 17, 10 ** 18))
    v = base64.b64encode(uid.encode()).decode().rstrip("=") + "." + rs(B64URL, 6) + "." + rs(B64URL, 38)
    S("discord_bot_token", "token", t.format(v=v), v)

for t in ["webhook_url = \"{v}\"", "POST {v} 204 No Content"]:
    v = f"https://discord.com/api/webhooks/{R.randint(10 ** 17, 10 ** 18)}/{rs(B64URL, 68)}"
    S("discord_webhook", "token", t.format(v=v), v)

for t, lang in [
    ("curl https://api.telegram.org/bot{v}/sendMessage -d chat_id=-1001234 -d text=hi", None),
    ("TELEGRAM_BOT_TOKEN={v}", None),
    ("Бот создан, токен: {v}", "ru"),
]:
    v = f"{R.randint(10 ** 8, 10 ** 10)}:AA{rs(B64URL, 33)}"
    S("telegram_bot_token", "token", t.format(v=v), v, lang)

for t in [
    "stripe.api_key = \"{v}\"",
    "curl https://api.stripe.com/v1/charges -u {v}: -d amount=2000",
    "STRIPE_SECRET={v}",
]:
    v = R.choice(["sk_live_", "rk_live_", "sk_live_"]) + rs(ALNUM, R.choice([24, 99]))
    S("stripe_secret_key", "token", t.format(v=v), v)

for t in ["STRIPE_WEBHOOK_SECRET={v}", "endpoint_secret = '{v}'"]:
    v = "whsec_" + rs(ALNUM, 32)
    S("stripe_webhook_secret", "token", t.format(v=v), v)

for t, lang in [
    ("OPENAI_API_KEY={v}", None),
    ("openai.AuthenticationError: Error code: 401 - Incorrect API key provided: {v}.", None),
    ("Mein Key für die API: {v}", "de"),
]:
    v = R.choice(["sk-proj-" + rs(B64URL, 124) + "T3BlbkFJ" + rs(B64URL, 20), "sk-" + rs(ALNUM, 20) + "T3BlbkFJ" + rs(ALNUM, 20), "sk-svcacct-" + rs(B64URL, 74)])
    S("openai_key", "token", t.format(v=v), v, lang)

for t, lang in [
    ("export ANTHROPIC_API_KEY={v}", None),
    ("client = anthropic.Anthropic(api_key=\"{v}\")", None),
    ("Claude API 키: {v}", "ko"),
]:
    v = "sk-ant-api03-" + rs(B64URL, 93) + "AA"
    S("anthropic_key", "token", t.format(v=v), v, lang)

for t in [
    "TWILIO_ACCOUNT_SID=AC{sid}\nTWILIO_AUTH_TOKEN={v}",
    "client = Client(\"AC{sid}\", \"{v}\")",
]:
    v = rs(HEX, 32)
    S("twilio_auth_token", "token", t.format(v=v, sid=rs(HEX, 32)), v)
v = "SK" + rs(HEX, 32)
S("twilio_api_key", "token", f"twilio api:core:messages:create --api-key {v} --api-secret {rs(ALNUM, 32)}", v)
v = "SK" + rs(HEX, 32)
S("twilio_api_key", "token", f"TWILIO_API_KEY={v}", v)

for t in ["SENDGRID_API_KEY={v}", "sg.client.api_key = '{v}'"]:
    v = "SG." + rs(B64URL, 22) + "." + rs(B64URL, 43)
    S("sendgrid_key", "token", t.format(v=v), v)

for t in ["curl -s --user 'api:{v}' https://api.mailgun.net/v3/mg.acme.io/messages", "MAILGUN_API_KEY={v}"]:
    v = "key-" + rs(HEX, 32)
    S("mailgun_key", "token", t.format(v=v), v)

for t, lang in [
    ("export VAULT_TOKEN={v}", None),
    ("vault login {v}", None),
    ("Vault 的 root token 是 {v}，用完请 revoke", "zh"),
]:
    v = R.choice(["hvs." + rs(B64URL, 90), "s." + rs(ALNUM, 24), "hvs." + rs(B64URL, 24)])
    S("vault_token", "token", t.format(v=v), v, lang)

for t in [
    "curl -u ops@acme.dev:{v} https://acme.atlassian.net/rest/api/3/myself",
    "JIRA_API_TOKEN={v}",
]:
    v = "ATATT3xFfGF0" + rs(B64URL, 170) + "=" + rs(HEX.upper(), 8)
    S("atlassian_token", "token", t.format(v=v), v)

for t in ["doctl auth init -t {v}", "DIGITALOCEAN_TOKEN={v}"]:
    v = "dop_v1_" + rs(HEX, 64)
    S("digitalocean_token", "token", t.format(v=v), v)

for t in ["LINEAR_API_KEY={v}", "headers: {{ Authorization: '{v}' }}"]:
    v = "lin_api_" + rs(ALNUM, 40)
    S("linear_key", "token", t.format(v=v), v)

for t in ["NOTION_TOKEN={v}", "notion = Client(auth=\"{v}\")"]:
    v = R.choice(["secret_" + rs(ALNUM, 43), "ntn_" + rs(DG, 11) + rs(ALNUM, 35)])
    S("notion_token", "token", t.format(v=v), v)

for t in ["postman collection run 1234-abcd --postman-api-key {v}", "X-Api-Key: {v}"]:
    v = "PMAK-" + rs(HEX, 24) + "-" + rs(HEX, 34)
    S("postman_key", "token", t.format(v=v), v)

for t in [
    "GRAFANA_SERVICE_ACCOUNT_TOKEN={v}",
    "curl -H \"Authorization: Bearer {v}\" https://grafana.ops.acme.dev/api/dashboards/uid/k8s",
    "grafana_cloud_api_key = \"{v}\"",
]:
    v = R.choice(["glsa_" + rs(ALNUM, 32) + "_" + rs(HEX, 8), "glc_" + rs(ALNUM + "+/", 80) + "="])
    S("grafana_token", "token", t.format(v=v), v)

for t in [
    "SENTRY_DSN={v}",
    "sentry_sdk.init(dsn=\"{v}\", traces_sample_rate=0.2)",
    "Sentry.init({{ dsn: '{v}' }});",
]:
    key = rs(HEX, 32)
    v = f"https://{key}@o{R.randint(100000, 999999)}.ingest.sentry.io/{R.randint(1000000, 9999999)}"
    S("sentry_dsn", "token", t.format(v=v), key)
v = "sntrys_" + rs(B64URL, 150)
S("sentry_auth_token", "token", f"SENTRY_AUTH_TOKEN={v} sentry-cli releases new 1.8.2", v)

for t, k in [
    ("DD_API_KEY={v}", 32),
    ("datadog:\n  apiKey: {v}\n  site: datadoghq.eu", 32),
    ("DD_APP_KEY={v}", 40),
]:
    v = rs(HEX, k)
    S("datadog_key", "token", t.format(v=v), v)

for t in ["SHOPIFY_ACCESS_TOKEN={v}", "X-Shopify-Access-Token: {v}"]:
    v = R.choice(["shpat_", "shpca_"]) + rs(HEX, 32)
    S("shopify_token", "token", t.format(v=v), v)

for t in [
    "Authorization: Bearer {v}",
    "access_token={v}",
    "[auth] decoded claims for {v}: sub=7781",
    "localStorage.setItem('id_token', '{v}')",
]:
    v = jwt({"sub": str(R.randint(1000, 99999)), "iat": 1764200000 + R.randint(0, 10 ** 6), "scope": "read write", "jti": rs(HEX, 16)})
    S("jwt", "token", t.format(v=v), v)

for t in ["databricks configure --token <<< {v}", "DATABRICKS_TOKEN={v}"]:
    v = "dapi" + rs(HEX, 32)
    S("databricks_token", "token", t.format(v=v), v)

for t in ["NEW_RELIC_API_KEY={v}", "newrelic.api_key: {v}"]:
    v = "NRAK-" + rs(UP + DG, 27)
    S("newrelic_key", "token", t.format(v=v), v)

for t in ["GROQ_API_KEY={v}", "client = Groq(api_key=\"{v}\")"]:
    v = "gsk_" + rs(ALNUM, 52)
    S("groq_key", "token", t.format(v=v), v)

for t in ["REPLICATE_API_TOKEN={v}", "export REPLICATE_API_TOKEN=\"{v}\""]:
    v = "r8_" + rs(ALNUM, 37)
    S("replicate_token", "token", t.format(v=v), v)

for t in [
    'credentials "app.terraform.io" {{\n  token = "{v}"\n}}',
    "TF_TOKEN_app_terraform_io={v}",
]:
    v = rs(ALNUM, 14) + ".atlasv1." + rs(ALNUM, 67)
    S("terraform_token", "token", t.format(v=v), v)

for t in ["# created: 2026-11-20T10:00:00Z\n# public key: age1{p}\n{v}", "SOPS_AGE_KEY={v}"]:
    v = "AGE-SECRET-KEY-1" + rs("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".upper(), 58)
    S("age_secret_key", "token", t.format(v=v, p=rs("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)), v)

for t, lang in [
    ("CLOUDFLARE_API_TOKEN={v}", None),
    ("wrangler 用的 token：{v}", "zh"),
]:
    v = rs(B64URL, 40)
    S("cloudflare_token", "token", t.format(v=v), v, lang)

for t in ["heroku config:set HEROKU_API_KEY={v}", "HEROKU_API_KEY={v}"]:
    v = R.choice(["HRKU-" + rs(B64URL, 60), "HRKU-AA" + rs(B64URL, 58)])
    S("heroku_key", "token", t.format(v=v), v)

for t, lang in [
    ("curl -H 'X-API-Key: {v}' https://api.weatherstack.io/v2/current?q=Lyon", None),
    ("services:\n  geocoder:\n    api_key: \"{v}\"", None),
    ("GET /v1/search?q=shoes&apikey={v}&page=2 HTTP/1.1", None),
    ("Il mio token per l'API del fornitore è {v}", "it"),
    ("\"x-api-secret\": \"{v}\",", None),
]:
    v = rs(ALNUM, R.choice([32, 40, 48]))
    S("generic_api_key", "token", t.format(v=v), v, lang)

for t, lang in [
    ("curl -H \"Authorization: Bearer {v}\" https://api.internal.acme.dev/v2/users/me", None),
    ("requests.get(url, headers={{'Authorization': 'Bearer {v}'}})", None),
    ("> GET /admin HTTP/2\n> authorization: bearer {v}\n> accept: */*", None),
    ("Token d'accès (Bearer) : {v}", "fr"),
]:
    v = rs(B64URL, R.choice([40, 64])) + rs(ALNUM, 2)
    S("bearer_token", "http", t.format(v=v), v, lang)

for t in [
    "users:\n- name: ci-deployer\n  user:\n    token: {v}",
    "kubectl --server=https://10.20.0.1:6443 --token={v} get pods -A",
]:
    v = jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": "ci", "sub": "system:serviceaccount:ci:deployer"})
    S("kubeconfig_token", "token", t.format(v=v), v)

for t in [
    '{{\n  "auths": {{\n    "registry.acme.io": {{\n      "auth": "{v}"\n    }}\n  }}\n}}',
    "DOCKER_AUTH_CONFIG={{\"auths\":{{\"ghcr.io\":{{\"auth\":\"{v}\"}}}}}}",
]:
    v = base64.b64encode(f"deploy-bot:{pw()}".encode()).decode()
    S("docker_config_auth", "token", t.format(v=v), v)

for t, lang in [
    ("otpauth://totp/Acme:ops?secret={v}&issuer=Acme&period=30", None),
    ("2FA 恢复用的密钥：{v}（别截图）", "zh"),
]:
    v = rs(B32, 32)
    S("totp_secret", "token", t.format(v=v), v, lang)

v = "0x" + rs(HEX, 64)
S("crypto_private_key", "token", f"PRIVATE_KEY={v} npx hardhat run scripts/deploy.ts --network sepolia", v)
words = ["abandon", "ladder", "orbit", "velvet", "canyon", "mirror", "stable", "thunder", "pepper", "glimpse",
         "rookie", "salmon", "timber", "uncle", "wisdom", "yellow", "actress", "bamboo", "cradle", "dolphin"]
v = " ".join(R.choice(words) for _ in range(12))
S("crypto_private_key", "token", f"钱包助记词备份：{v}", v, "zh")
v = "5K" + rs("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 49)
S("crypto_private_key", "token", f"importprivkey {v} \"cold\" false", v)

for t in ["[Interface]\nPrivateKey = {v}\nAddress = 10.8.0.2/24\nDNS = 1.1.1.1", "wg set wg0 private-key <(echo {v})"]:
    v = rs(ALNUM + "+/", 42) + R.choice("AEIMQUYcgkosw048") + "="
    S("wireguard_private_key", "token", t.format(v=v), v)

v = "django-insecure-" + rs(LO + DG + "!@#$%^&*(-_=+)", 50)
S("app_secret_key", "token", f"SECRET_KEY = '{v}'", v)
v = "base64:" + base64.b64encode(bytes(R.randrange(256) for _ in range(32))).decode()
S("app_secret_key", "token", f"APP_KEY={v}", v)
v = rs(HEX, 128)
S("app_secret_key", "token", f"production:\n  secret_key_base: {v}", v)
v = base64.b64encode(bytes(R.randrange(256) for _ in range(32))).decode()
S("app_secret_key", "token", f"NEXTAUTH_SECRET=\"{v}\"", v)

# ---- passwords
for layout in [
    "machine api.heroku.com\n  login deploy@acme.dev\n  password {p}",
    "machine ftp.archive.lan login backup password {p}",
]:
    p = pw()
    S("netrc", "password", layout.format(p=p), p)

for layout in [
    "echo 'db-prod.internal:5432:billing:report_ro:{p}' >> ~/.pgpass && chmod 600 ~/.pgpass",
    "*:*:*:postgres:{p}",
]:
    p = pw().replace(":", "")
    S("pgpass", "password", layout.format(p=p), p)

for layout in [
    "redis-cli -h cache-01 -p 6380 -a '{p}' --no-auth-warning INFO memory",
    "$ redis-cli -a {p} -n 3 KEYS 'sess:*'",
]:
    p = rs(ALNUM, 16)
    S("redis_cli", "password", layout.format(p=p), p)

for layout in [
    "mysql -h 10.1.4.7 -u app -p'{p}' shop < dump.sql",
    "mysqldump -uroot -p{p} --single-transaction crm > crm.sql",
    "mysql --user=admin --password=\"{p}\" -e 'SHOW PROCESSLIST'",
]:
    p = rs(ALNUM + "!#%", 14)
    S("mysql_cli", "password", layout.format(p=p), p)

for layout in [
    "sshpass -p '{p}' ssh -o StrictHostKeyChecking=no deploy@bastion.acme.dev",
    "sshpass -p{p} scp build.tgz pi@raspberrypi.local:/tmp/",
]:
    p = pw()
    S("sshpass", "password", layout.format(p=p), p)

for layout, lang in [
    ("PGPASSWORD={p} psql -h localhost -U etl -d warehouse -c '\\dt'", None),
    ("MYSQL_PWD='{p}' mysql -u reporter analytics", None),
    ("DB_HOST=db\nDB_USER=shop\nDB_PASSWORD={p}\nDB_NAME=shop", None),
    ("RSYNC_PASSWORD={p} rsync -av rsync://backup@nas.lan/photos ./photos", None),
    ("set PGPASSWORD={p}\r\npg_dump -U postgres -Fc erp > erp.dump", None),
    ("export SMTP_PASS=\"{p}\"", None),
]:
    p = pw()
    S("env_password", "password", layout.format(p=p), p, lang)

for layout in [
    "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: {p}",
    "spring:\n  datasource:\n    url: jdbc:mysql://mysql:3306/orders\n    username: orders\n    password: '{p}'",
    "ansible_become_pass: {p}",
    "mariadb:\n  auth:\n    rootPassword: \"{p}\"\n    replicationPassword: \"{q}\"",
]:
    p, q = pw(), pw()
    S("yaml_password", "password", layout.format(p=p, q=q), p)

for layout in [
    "docker login registry.acme.io -u robot -p {p}",
    "htpasswd -bc /etc/nginx/.htpasswd admin {p}",
    "ldapsearch -x -H ldaps://ldap.corp -D 'cn=admin,dc=corp,dc=lan' -w '{p}' '(uid=jdoe)'",
    "smbclient //fs01/finance -U 'CORP\\kwalker%{p}'",
    "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{p}",
    "keytool -importcert -keystore truststore.jks -storepass {p} -file ca.crt -noprompt",
    "wget --user=mirror --password='{p}' https://downloads.vendor.io/sdk.tar.gz",
    "helm repo add private https://charts.acme.io --username ci --password {p}",
    "net use Z: \\\\nas01\\share /user:ACME\\mchen {p}",
]:
    p = pw().replace("'", "").replace("%", "")
    S("cli_password", "password", layout.format(p=p), p)

for layout in [
    "<server>\n  <id>nexus-releases</id>\n  <username>deployment</username>\n  <password>{p}</password>\n</server>",
    "[distutils]\nindex-servers = internal\n\n[internal]\nrepository = https://pypi.acme.io\nusername = ci\npassword = {p}",
    "mavenPassword={p}\nsigning.keyId=24875D73",
    "[database]\nhost = 10.0.3.12\nuser = sa\npass = {p}",
    '"ConnectionStrings": {{ "Admin": "..." }},\n"Smtp": {{ "User": "noreply", "Password": "{p}" }}',
    "<add key=\"LdapBindPassword\" value=\"{p}\" />",
]:
    p = pw().replace("&", "").replace("<", "")
    S("config_password", "password", layout.format(p=p), p)

for layout, lang in [
    ("user: the staging admin login is admin / {p} if you need it", None),
    ("服务器 root 密码是 {p}，今晚改掉", "zh"),
    ("測試機的登入密碼：{p}", "zh-Hant"),
    ("VPN のパスワードは {p} です", "ja"),
    ("관리자 비밀번호: {p}", "ko"),
    ("Das WLAN-Passwort im Büro lautet {p}", "de"),
    ("Le mot de passe du compte de service est « {p} »", "fr"),
    ("La contraseña de la base de datos es {p}", "es"),
    ("La password di root è {p}, cambiala dopo il deploy", "it"),
    ("Het wachtwoord van de beheerder is {p}", "nl"),
    ("pwd for the jenkins box -> {p}", None),
]:
    p = pw()
    S("password_in_chat", "password", layout.format(p=p), p, lang)

v = "$6$" + rs(ALNUM + "./", 16) + "$" + rs(ALNUM + "./", 86)
S("password_hash", "password", f"deploy:{v}:19700:0:99999:7:::", v)
v = "$apr1$" + rs(ALNUM + "./", 8) + "$" + rs(ALNUM + "./", 22)
S("password_hash", "password", f"admin:{v}", v)
v = "$2b$12$" + rs(ALNUM + "./", 53)
S("password_hash", "password", f"UPDATE users SET password_hash = '{v}' WHERE id = 42;", v)

for layout, lang in [
    ("nmcli dev wifi connect 'Lab-5G' password '{p}'", None),
    ("network={{\n    ssid=\"HomeNet\"\n    psk=\"{p}\"\n}}", None),
    ("客厅 Wi-Fi 密码 {p}", "zh"),
]:
    p = pw()
    S("wifi_password", "password", layout.format(p=p), p, lang)

# ---- DSNs
for layout in [
    "DATABASE_URL=postgres://billing:{p}@db-primary.prod.internal:5432/billing?sslmode=require",
    "psql \"postgresql://analyst:{p}@10.12.0.5/warehouse\"",
    "sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server failed\n[SQL: ...] url=postgresql+psycopg2://etl:{p}@pg.lan:5433/stage",
]:
    p = urlpw()
    S("dsn_postgres", "dsn", layout.format(p=p), p)

for layout in [
    "mysql://wp:{p}@127.0.0.1:3306/wordpress",
    "dsn := \"shop:{p}@tcp(mysql.svc.cluster.local:3306)/shop?parseTime=true\"",
    "SQLALCHEMY_DATABASE_URI = 'mysql+pymysql://root:{p}@db/app?charset=utf8mb4'",
]:
    p = urlpw()
    S("dsn_mysql", "dsn", layout.format(p=p), p)

for layout in [
    "mongosh \"mongodb+srv://admin:{p}@cluster0.ab1cd.mongodb.net/test\"",
    "MONGO_URL=mongodb://app:{p}@mongo-0.mongo,mongo-1.mongo:27017/app?replicaSet=rs0&authSource=admin",
    "pymongo.errors.OperationFailure: Authentication failed., full error: {{'ok': 0.0}} uri=mongodb://reader:{p}@192.168.7.20/logs",
]:
    p = urlpw()
    S("dsn_mongodb", "dsn", layout.format(p=p), p)

for layout in ["REDIS_URL=redis://:{p}@redis-master:6379/0", "CELERY_BROKER_URL=rediss://default:{p}@eu1-upstash.io:6380"]:
    p = urlpw()
    S("dsn_redis", "dsn", layout.format(p=p), p)

for layout in ["amqp://orders:{p}@rabbitmq:5672/%2F", "broker_url = 'amqps://worker:{p}@b-1.mq.eu-west-1.amazonaws.com:5671'"]:
    p = urlpw()
    S("dsn_amqp", "dsn", layout.format(p=p), p)

for layout in [
    "jdbc:postgresql://pg.internal:5432/ledger?user=ledger&password={p}&ssl=true",
    "spring.datasource.url=jdbc:mysql://10.0.0.8:3306/hr?user=hr_app&password={p}",
    "jdbc:sqlserver://sql01.corp.local:1433;databaseName=Payroll;user=svc_payroll;password={p};encrypt=true",
]:
    p = urlpw()
    S("dsn_jdbc", "dsn", layout.format(p=p), p)

for layout in [
    "\"DefaultConnection\": \"Server=tcp:sql-prod.database.windows.net,1433;Initial Catalog=crm;User ID=crmadmin;Password={p};Encrypt=True;\"",
    "Data Source=SQL02;Initial Catalog=Inventory;User Id=inv;Pwd={p};",
]:
    p = urlpw()
    S("dsn_sqlserver", "dsn", layout.format(p=p), p)

for layout in [
    "clickhouse://default:{p}@ch-01.analytics:9000/events",
    "NEO4J_URI=neo4j+s://neo4j:{p}@a1b2c3d4.databases.neo4j.io",
    "snowflake://LOADER:{p}@xy12345.eu-central-1/RAW/PUBLIC?warehouse=LOAD_WH",
    "ELASTICSEARCH_URL=https://elastic:{p}@es.logging.svc:9200",
    "ftp://anonymous2:{p}@files.vendor-lan.net/pub/firmware.bin",
    "EMAIL_URL=smtp+tls://mailer:{p}@smtp.mailprovider.net:587",
    "influx -host influx.lan -username admin -password {p}",
    "cassandra_url: cassandra://cass_admin:{p}@10.30.1.4:9042/metrics",
]:
    p = urlpw()
    S("dsn_misc_url", "dsn", layout.format(p=p), p)

for layout in [
    "conn = psycopg2.connect(\"host=pg01 port=5432 dbname=crm user=crm password={p} sslmode=verify-full\")",
    "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"svc-stream\" password=\"{p}\";",
    "sqlplus scott/{p}@//ora-db.corp:1521/ORCLPDB1",
]:
    p = urlpw()
    S("dsn_keyvalue", "dsn", layout.format(p=p), p)

for layout in [
    "git clone https://jdoe:{p}@bitbucket.org/acme/payments.git",
    "https://oauth2:{p}@gitlab.com/team/infra.git",
    "pip install --index-url https://ci:{p}@pypi.acme.io/simple/ acme-core==3.2.1",
]:
    p = rs(ALNUM, 24)
    S("credential_url", "dsn", layout.format(p=p), p)

# ---- http
for layout in [
    "Authorization: Basic {v}",
    "> GET /api/v1/export HTTP/1.1\n> Host: jenkins.acme.dev\n> authorization: basic {v}",
    "headers = {{\"Authorization\": \"Basic {v}\"}}",
]:
    v = base64.b64encode(f"{R.choice(['admin', 'svc-report', 'jenkins'])}:{pw()}".encode()).decode()
    S("basic_auth_header", "http", layout.format(v=v), v)

for layout in [
    "curl -u admin:{p} http://localhost:15672/api/queues",
    "curl --user 'elastic:{p}' -k https://es01:9200/_cat/indices",
]:
    p = rs(ALNUM, 14)
    S("curl_user", "http", layout.format(p=p), p)

for layout in [
    "Cookie: _ga=GA1.1.123.456; sessionid={v}; csrftoken=abc",
    "curl -b 'connect.sid=s%3A{v}' https://app.acme.dev/api/me",
    "-H 'cookie: PHPSESSID={v}; lang=de'",
]:
    v = rs(LO + DG, 32) if "sessionid" in layout or "PHP" in layout else rs(B64URL, 32) + "." + rs(B64URL, 43)
    S("cookie_header", "http", layout.format(v=v), v)

for layout in [
    "< Set-Cookie: laravel_session={v}; expires=Fri, 27-Nov-2026 12:00:00 GMT; path=/; httponly; samesite=lax",
    "Set-Cookie: JSESSIONID={v}; Path=/portal; Secure; HttpOnly",
    "set-cookie: __Host-next-auth.session-token={v}; Path=/; HttpOnly; Secure; SameSite=Lax",
    "Set-Cookie: connect.sid=s%3A{v}; Path=/; HttpOnly",
]:
    if "laravel" in layout:
        v = "eyJpdiI6I" + rs(B64URL, 180) + "%3D%3D"
    elif "JSESSION" in layout:
        v = rs(HEX.upper(), 32)
    elif "next-auth" in layout:
        v = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.." + rs(B64URL, 22) + "." + rs(B64URL, 120) + "." + rs(B64URL, 22)
    else:
        v = rs(B64URL, 32) + "." + rs(B64URL, 43)
    S("set_cookie", "http", layout.format(v=v), v)

for layout in [
    "GET https://graph.social.example-cdn.net/v18.0/me?fields=id,name&access_token={v}",
    "wss://stream.acme.dev/ws?token={v}&channel=orders",
    "redirect: https://app.acme.dev/callback#access_token={v}&token_type=Bearer&expires_in=3600",
]:
    v = rs(ALNUM, 48)
    S("url_query_token", "http", layout.format(v=v), v)

# ---- PEM
def pem(label, prefix, nlines, extra=""):
    body = b64body(prefix, nlines)
    last = rs(B64, 20) + "=="
    body.append(last)
    inner = "\n".join(body)
    return f"-----BEGIN {label}-----\n{extra}{inner}\n-----END {label}-----", inner


txt, inner = pem("RSA PRIVATE KEY", "MIIEpAIBAAKCAQEA", 8)
S("pem_rsa", "pem", "$ cat deploy/key.pem\n" + txt, inner)
txt, inner = pem("RSA PRIVATE KEY", "MIIEowIBAAKCAQEA", 5)
S("pem_rsa", "pem", "ssl_key: |\n  " + txt.replace("\n", "\n  "), inner.replace("\n", "\n  "))
txt, inner = pem("EC PRIVATE KEY", "MHcCAQEEI", 2)
S("pem_ec", "pem", txt, inner)
txt, inner = pem("PRIVATE KEY", "MIIEvgIBADANBgkqhkiG9w0BAQEFAASC", 6)
S("pem_pkcs8", "pem", "Here is the key the vendor sent:\n\n" + txt + "\n\nplease install it on the LB", inner)
txt, inner = pem("PRIVATE KEY", "MC4CAQAwBQYDK2VwBCIEI", 1)
S("pem_pkcs8", "pem", "TLS_KEY=\"" + txt.replace("\n", "\\n") + "\"", inner.replace("\n", "\\n"))
txt, inner = pem("ENCRYPTED PRIVATE KEY", "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", 6)
S("pem_encrypted", "pem", txt, inner)
txt, inner = pem("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", 4, width=None) if False else pem("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", 4)
S("openssh_key", "pem", "~/.ssh/id_ed25519:\n" + txt, inner)
txt, inner = pem("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHIAAAAGYmNyeXB0AAAAGAAAABD", 12)
S("openssh_key", "pem", "Warning: Permanently added 'gw' (ED25519) to the list of known hosts.\nLoad key: contents follow\n" + txt, inner)
priv = rs(B64, 44) + "="
S("putty_key", "pem", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20261127\nPublic-Lines: 2\n"
  f"AAAAC3NzaC1lZDI1NTE5AAAAI{rs(B64, 43)}\n{rs(B64, 20)}\nPrivate-Lines: 1\n{priv}\nPrivate-MAC: {rs(HEX, 64)}", priv)
body = b64body("lQVYBGVk", 6)
inner = "\n".join(body)
S("pgp_private_key", "pem", f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{inner}\n={rs(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----", inner)

# ---- contact: e-mail
first = ["li.mingxuan", "sarah.okafor", "tanaka.haruki", "kim.jiwoo", "m.schneider", "lucia.fernandez",
         "p.dubois", "giulia.rossi", "wang_xiaoyu", "j.vandenberg", "chen.yating", "omar.haddad"]
doms = ["163.com", "qq.com", "gmail.com", "outlook.de", "northwind-labs.io", "yahoo.co.jp", "naver.com",
        "orange.fr", "correo-mx.com", "libero.it", "ziggo.nl", "hinet.net"]
email_layouts = [
    ("Author: Li Mingxuan <{e}>\nDate:   Thu Nov 26 14:02:11 2026 +0800", None),
    ("please cc {e} on the incident ticket", None),
    ("git config --global user.email \"{e}\"", None),
    ("请联系负责人 {e} 获取权限", "zh"),
    ("担当者：{e} までご連絡ください", "ja"),
    ("담당자 이메일은 {e} 입니다", "ko"),
    ("Bei Rückfragen bitte an {e} wenden.", "de"),
    ("Envoyez le fichier à {e} avant vendredi.", "fr"),
    ("[2026-11-27 08:13:55] INFO  mailer: delivered reset link to={e} msg_id=3f9a", None),
    ("mailto:{e}?subject=Invoice%20Q3", None),
    ("ERROR duplicate key value violates unique constraint \"users_email_key\" DETAIL: Key (email)=({e}) already exists.", None),
    ("聯絡窗口：{e}", "zh-Hant"),
]
for (layout, lang), f, d in zip(email_layouts, first, doms):
    e = f + (str(R.randint(1, 99)) if R.random() < 0.4 else "") + ("+billing" if R.random() < 0.15 else "") + "@" + d
    S("email", "contact", layout.format(e=e), e, lang)
for layout, e, lang in [
    ("收件人：{e}", "张伟@公司.中国", "zh"),
    ("Kontakt: {e}", "jürgen.müller@bäckerei-müller.de", "de"),
    ("correo: {e}", "josé.garcía@correo-ejemplar.es", "es"),
]:
    S("email_idn", "contact", layout.format(e=e), e, lang)

# ---- phones
def cn_mobile():
    return "1" + R.choice("3456789") + rs(DG, 9)


for layout, fmt, lang in [
    ("手机号：{p}", lambda m: m, "zh"),
    ("联系电话 {p}（工作日）", lambda m: f"{m[:3]} {m[3:7]} {m[7:]}", "zh"),
    ("Customer phone: {p}", lambda m: f"+86 {m[:3]}-{m[3:7]}-{m[7:]}", None),
    ("sms.send(to=\"{p}\", template=\"OTP\")", lambda m: f"+86{m}", None),
    ("[WARN] 短信发送失败 mobile={p} code=isv.BUSINESS_LIMIT_CONTROL", lambda m: m, "zh"),
    ("收货人：王先生 (0086) {p}", lambda m: f"{m[:3]}-{m[3:7]}-{m[7:]}", "zh"),
]:
    p = fmt(cn_mobile())
    S("phone_cn", "contact", layout.format(p=p), p, lang)

for layout, p, lang in [
    ("公司座机：{p}", f"010-{R.randint(5, 8)}{rs(DG, 7)}", "zh"),
    ("Office (Shenzhen): {p}", f"+86 755 {R.randint(2, 8)}{rs(DG, 3)} {rs(DG, 4)}", None),
]:
    S("phone_cn_landline", "contact", layout.format(p=p), p, lang)

for layout, fmt, lang in [
    ("WhatsApp: {p}", lambda: f"+852 {R.choice('569')}{rs(DG, 3)} {rs(DG, 4)}", None),
    ("香港辦公室電話 {p}", lambda: f"(852) {R.choice('23')}{rs(DG, 3)}-{rs(DG, 4)}", "zh-Hant"),
    ("收件人手機：{p}", lambda: f"{R.choice('569')}{rs(DG, 7)}", "zh-Hant"),
]:
    p = fmt()
    S("phone_hk", "contact", layout.format(p=p), p, lang)

for layout, fmt, lang in [
    ("手機：{p}", lambda: f"09{rs(DG, 2)}-{rs(DG, 3)}-{rs(DG, 3)}", "zh-Hant"),
    ("Taipei office {p}", lambda: f"+886 2 {rs(DG, 4)} {rs(DG, 4)}", None),
    ("line_id=... phone={p}", lambda: f"+8869{rs(DG, 8)}", None),
]:
    p = fmt()
    S("phone_tw", "contact", layout.format(p=p), p, lang)

for layout, fmt, lang in [
    ("携帯：{p}", lambda: f"0{R.choice('789')}0-{rs(DG, 4)}-{rs(DG, 4)}", "ja"),
    ("Tokyo office: {p}", lambda: f"+81 3-{rs(DG, 4)}-{rs(DG, 4)}", None),
    ("電話番号 {p} に折り返しお願いします", lambda: f"+81 {R.choice('789')}0 {rs(DG, 4)} {rs(DG, 4)}", "ja"),
]:
    p = fmt()
    S("phone_jp", "contact", layout.format(p=p), p, lang)

for layout, fmt, lang in [
    ("연락처: {p}", lambda: f"010-{rs(DG, 4)}-{rs(DG, 4)}", "ko"),
    ("Seoul contact {p}", lambda: f"+82 10-{rs(DG, 4)}-{rs(DG, 4)}", None),
    ("휴대폰 {p} 으로 인증번호 발송", lambda: f"010{rs(DG, 8)}", "ko"),
]:
    p = fmt()
    S("phone_kr", "contact", layout.format(p=p), p, lang)


def us_num():
    a = f"{R.randint(2, 9)}{rs(DG, 2)}"
    e = f"{R.randint(2, 9)}{rs(DG, 2)}"
    while e == "555":
        e = f"{R.randint(2, 9)}{rs(DG, 2)}"
    return a, e, rs(DG, 4)


for layout, fmt in [
    ("Call me at {p} after 5pm", lambda a, e, l: f"({a}) {e}-{l}"),
    ("twilio.messages.create(to='{p}', from_='+18885550100', body=msg)", lambda a, e, l: f"+1{a}{e}{l}"),
    ("Contact: {p}", lambda a, e, l: f"{a}.{e}.{l}"),
    ("customer_phone,{p},Portland,OR", lambda a, e, l: f"+1 {a}-{e}-{l}"),
]:
    p = fmt(*us_num())
    S("phone_us", "contact", layout.format(p=p), p)

for layout, fmt in [
    ("Mobile: {p}", lambda: f"07{R.randint(400, 999)} {rs(DG, 6)}"),
    ("ring me on {p}", lambda: f"+44 7{R.randint(400, 999)} {rs(DG, 6)}"),
    ("Switchboard {p}", lambda: f"+44 (0)20 {R.choice('378')}{rs(DG, 3)} {rs(DG, 4)}"),
]:
    p = fmt()
    S("phone_uk", "contact", layout.format(p=p), p)

for layout, fmt, lang in [
    ("Handy: {p}", lambda: f"+49 1{R.choice('567')}{rs(DG, 1)} {rs(DG, 8)}", "de"),
    ("Tel. {p}", lambda: f"030 {rs(DG, 8)}", "de"),
    ("Rufnummer {p} (Zentrale)", lambda: f"+49 (0)89 {rs(DG, 4)}-{rs(DG, 3)}", "de"),
]:
    p = fmt()
    S("phone_de", "contact", layout.format(p=p), p, lang)

for layout, fmt, lang in [
    ("Portable : {p}", lambda: f"0{R.choice('67')} {rs(DG, 2)} {rs(DG, 2)} {rs(DG, 2)} {rs(DG, 2)}", "fr"),
    ("Joignable au {p}", lambda: f"+33 {R.choice('67')} {rs(DG, 2)} {rs(DG, 2)} {rs(DG, 2)} {rs(DG, 2)}", "fr"),
    ("tel={p}", lambda: f"+33{R.choice('67')}{rs(DG, 8)}", None),
]:
    p = fmt()
    S("phone_fr", "contact", layout.format(p=p), p, lang)

for layout, fmt, lang in [
    ("Móvil: {p}", lambda: f"6{rs(DG, 2)} {rs(DG, 3)} {rs(DG, 3)}", "es"),
    ("Llámame al {p}", lambda: f"+34 6{rs(DG, 2)} {rs(DG, 2)} {rs(DG, 2)} {rs(DG, 2)}", "es"),
]:
    p = fmt()
    S("phone_es", "contact", layout.format(p=p), p, lang)

for layout, fmt, lang in [
    ("Cellulare: {p}", lambda: f"+39 3{rs(DG, 2)} {rs(DG, 3)} {rs(DG, 4)}", "it"),
    ("chiamami al {p}", lambda: f"3{rs(DG, 2)} {rs(DG, 7)}", "it"),
]:
    p = fmt()
    S("phone_it", "contact", layout.format(p=p), p, lang)

for layout, fmt, lang in [
    ("Mobiel: {p}", lambda: f"06-{rs(DG, 8)}", "nl"),
    ("Bel me op {p}", lambda: f"+31 6 {rs(DG, 8)}", "nl"),
]:
    p = fmt()
    S("phone_nl", "contact", layout.format(p=p), p, lang)

# ---- national ids
for layout, fmt, lang in [
    ("身份证号：{v}", lambda v: v, "zh"),
    ("INSERT INTO customers(name, id_card) VALUES ('刘洋', '{v}');", lambda v: v, "zh"),
    ("请核对证件号码 {v} 是否正确", lambda v: f"{v[:6]} {v[6:14]} {v[14:]}", "zh"),
    ("kyc.verify(id_number=\"{v}\") -> mismatch", lambda v: v, None),
]:
    while True:
        raw = cn_id(R.choice(["110105", "310115", "440305", "330106", "510107", "420106"]), f"{R.randint(1960, 2004)}{R.randint(1, 12):02d}{R.randint(1, 28):02d}")
        if layout.startswith("kyc") and not raw.endswith("X"):
            continue
        break
    v = fmt(raw)
    S("cn_resident_id", "national_id", layout.format(v=v), v, lang)

for layout, lang in [("身份證號碼：{v}", "zh-Hant"), ("HKID {v} verified", None), ("hkid={v}", None)]:
    prefix = R.choice(["A", "K", "R", "Y", "XA", "WX"][:4 if "=" in layout else 6])
    d = rs(DG, 6)
    c = hkid_check(prefix, d)
    v = f"{prefix}{d}({c})" if "=" not in layout else f"{prefix}{d}{c}"
    S("hkid", "national_id", layout.format(v=v), v, lang)

for layout, lang in [("身分證字號：{v}", "zh-Hant"), ("national_id: {v}", None), ("統一編號欄誤填身分證 {v}", "zh-Hant")]:
    v = tw_id()
    S("tw_id", "national_id", layout.format(v=v), v, lang)

for layout, fmt, lang in [
    ("マイナンバー：{v}", lambda v: f"{v[:4]} {v[4:8]} {v[8:]}", "ja"),
    ("個人番号 {v} を登録しました", lambda v: v, "ja"),
    ("my_number={v}", lambda v: f"{v[:4]}-{v[4:8]}-{v[8:]}", None),
]:
    v = fmt(my_number())
    S("jp_my_number", "national_id", layout.format(v=v), v, lang)

for layout, lang in [("주민등록번호: {v}", "ko"), ("rrn={v}", None), ("본인 확인용 주민번호 {v} 입력됨", "ko")]:
    yy = R.randint(60, 99)
    v = rrn(f"{yy:02d}{R.randint(1, 12):02d}{R.randint(1, 28):02d}", R.choice("12"))
    S("kr_rrn", "national_id", layout.format(v=v), v, lang)

for layout in ["SSN: {v}", "W-9 on file, TIN {v}", "applicant.ssn = '{v}'"]:
    v = ssn()
    if "TIN" in layout:
        v = v.replace("-", "")
    S("us_ssn", "national_id", layout.format(v=v), v)

for layout in ["NI number: {v}", "nino={v}", "National Insurance No. {v}"]:
    p, d, s = nino()
    v = f"{p} {d[:2]} {d[2:4]} {d[4:]} {s}" if " No" in layout or ":" in layout else f"{p}{d}{s}"
    S("uk_nino", "national_id", layout.format(v=v), v)

for layout, v, lang in [
    ("护照号码：{v}", "E" + rs(DG, 8), "zh"),
    ("Passport No.: {v} (USA)", rs(DG, 9), None),
    ("旅券番号 {v}", R.choice(["TK", "TR", "MZ"]) + rs(DG, 7), "ja"),
    ("여권번호 {v}", "M" + rs(DG, 8), "ko"),
    ("Reisepassnummer: {v}", "C" + rs("CFGHJKLMNPRTVWXYZ0123456789", 8), "de"),
]:
    S("passport", "national_id", layout.format(v=v), v, lang)

for nat, sur, given in [("GBR", "WHITFIELD", "EMMA<LOUISE"), ("CHN", "ZHAO", "JINGYI")]:
    num = (rs(DG, 9) if nat == "GBR" else "E" + rs(DG, 8))
    l1 = f"P<{nat}{sur}<<{given}".ljust(44, "<")
    l2 = mrz_line2(num, nat, f"{R.randint(60, 99):02d}{R.randint(1, 12):02d}{R.randint(1, 28):02d}", R.choice("MF"), f"3{R.randint(0, 4)}{R.randint(1, 12):02d}{R.randint(1, 28):02d}")
    assert len(l1) == 44 and len(l2) == 44
    S("passport_mrz", "national_id", f"OCR result:\n{l1}\n{l2}", l2)

for layout, lang in [("DNI: {v}", "es"), ("nif={v}", None)]:
    v = dni()
    S("es_dni", "national_id", layout.format(v=v), v, lang)
for layout, lang in [("N° de sécurité sociale : {v}", "fr"), ("nir={v}", None)]:
    body, key = nir()
    v = f"{body[0]} {body[1:3]} {body[3:5]} {body[5:7]} {body[7:10]} {body[10:13]} {key}" if ":" in layout else body + key
    S("fr_nir", "national_id", layout.format(v=v), v, lang)
for layout, lang in [("BSN: {v}", "nl"), ("burgerservicenummer {v} ontbreekt in dossier", "nl")]:
    v = bsn()
    S("nl_bsn", "national_id", layout.format(v=v), v, lang)
for layout in ["NRIC: {v}", "fin_no={v}"]:
    v = nric(R.choice("ST") if "NRIC" in layout else R.choice("FG"))
    S("sg_nric", "national_id", layout.format(v=v), v)

# ---- financial
ibans = []
ibans.append(("DE", iban("DE", rs(DG, 18))))
ibans.append(("GB", iban("GB", R.choice(["NWBK", "BARC", "LOYD", "HBUK"]) + rs(DG, 14))))
bank, branch, acct = rs(DG, 5), rs(DG, 5), rs(DG, 11)
ibans.append(("FR", iban("FR", bank + branch + acct + f"{fr_rib_key(bank, branch, acct):02d}")))
eb, eo, ea = rs(DG, 4), rs(DG, 4), rs(DG, 10)
ibans.append(("ES", iban("ES", eb + eo + f"{es_dc('00' + eb + eo)}{es_dc(ea)}" + ea)))
ibans.append(("NL", iban("NL", R.choice(["ABNA", "INGB", "RABO", "TRIO"]) + rs(DG, 10))))
b10 = rs(DG, 10)
bc = int(b10) % 97 or 97
ibans.append(("BE", iban("BE", b10 + f"{bc:02d}")))
ibans.append(("CH", iban("CH", rs(DG, 17))))
ibans.append(("AT", iban("AT", rs(DG, 16))))
ibans.append(("PL", iban("PL", rs(DG, 24))))
for (cc, v), (layout, sp, lang) in zip(ibans, [
    ("IBAN: {v}", True, "de"),
    ("Please wire the refund to {v} (sort code in the IBAN)", False, None),
    ("Coordonnées bancaires : IBAN {v}", True, "fr"),
    ("Transferencia a la cuenta {v}", True, "es"),
    ("rekeningnummer {v}", False, "nl"),
    ("payout.iban=\"{v}\"", False, None),
    ("Bitte auf {v} überweisen", True, "de"),
    ("beneficiary_account: {v}", False, None),
    ("Numer rachunku: {v}", True, "pl"),
]):
    assert iban_ok(v), v
    w = spaced(v) if sp else v
    S("iban", "financial", layout.format(v=w), w, lang)

card_specs = [
    ("card_visa", "4", 16), ("card_visa", "4", 16), ("card_visa", "4", 13),
    ("card_mastercard", "5" + R.choice("12345"), 16), ("card_mastercard", "22" + str(R.randint(21, 99)), 16), ("card_mastercard", "5" + R.choice("12345"), 16),
    ("card_amex", R.choice(["34", "37"]), 15), ("card_amex", "37", 15),
    ("card_unionpay", "62", 16), ("card_unionpay", "62", 19), ("card_unionpay", "62", 16),
    ("card_other", "35" + str(R.randint(28, 89)), 16), ("card_other", "6011", 16), ("card_other", "36", 14),
]
card_layouts = [
    ("card number: {v}", lambda n: spaced(n), None),
    ("PAN={v} exp=09/28", lambda n: n, None),
    ("Visa {v}", lambda n: n, None),
    ("Kartennummer {v}", lambda n: "-".join(n[i:i + 4] for i in range(0, 16, 4)), "de"),
    ("payment failed for card {v}: do_not_honor", lambda n: n, None),
    ("カード番号：{v}", lambda n: spaced(n), "ja"),
    ("Amex ending … full number {v}", lambda n: f"{n[:4]} {n[4:10]} {n[10:]}", None),
    ("{{\"card\": \"{v}\", \"cvc\": \"{cvc}\"}}", lambda n: n, None),
    ("银行卡号：{v}", lambda n: spaced(n), "zh"),
    ("收款卡号 {v}（工商银行）", lambda n: n, "zh"),
    ("信用卡號碼 {v}", lambda n: spaced(n), "zh-Hant"),
    ("JCB {v}", lambda n: spaced(n), None),
    ("numéro de carte {v}", lambda n: spaced(n), "fr"),
    ("Diners Club {v}", lambda n: f"{n[:4]} {n[4:10]} {n[10:]}", None),
]
for (cat, prefix, length), (layout, fmt, lang) in zip(card_specs, card_layouts):
    n = card(prefix, length)
    assert luhn_ok(n)
    v = fmt(n)
    S(cat, "financial", layout.format(v=v, cvc=rs(DG, 3)), v, lang)

# ---- network
for layout in [
    "ssh -i ~/.ssh/prod.pem ec2-user@{ip}",
    "Nov 27 03:12:44 web01 sshd[2291]: Failed password for root from {ip} port 52144 ssh2",
    "{ip} - - [27/Nov/2026:10:01:02 +0000] \"POST /login HTTP/1.1\" 401 512",
    "客户的公网 IP 是 {ip}，已加入白名单",
]:
    ip = ip_public()
    S("ipv4_public", "network", layout.format(ip=ip), ip, "zh" if "客户" in layout else None)
for layout, ip in [
    ("upstream backend {{ server {ip}:8080; }}", f"10.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(2, 254)}"),
    ("mount -t nfs {ip}:/export/home /mnt/home", f"192.168.{R.randint(0, 255)}.{R.randint(2, 254)}"),
    ("db.host=172.{b}.{c}.{d}", None),
]:
    if ip is None:
        ip = f"172.{R.randint(16, 31)}.{R.randint(0, 255)}.{R.randint(2, 254)}"
        layout = "db.host={ip}"
    S("ipv4_private", "network", layout.format(ip=ip), ip)
for layout in ["curl -g 'http://[{ip}]:9100/metrics'", "Accepted publickey for deploy from {ip} port 40112"]:
    ip = "2a01:" + ":".join(rs(HEX, 4).lstrip("0") or "0" for _ in range(7))
    S("ipv6", "network", layout.format(ip=ip), ip)
for layout in ["DHCPACK on 192.168.1.57 to {m} (iPhone-van-Sanne)", "wlan0: authenticated with station {m}"]:
    m = ":".join(rs(HEX, 2) for _ in range(6))
    S("mac_address", "network", layout.format(m=m), m)

# ---- paths
for layout, user in [
    ("Traceback (most recent call last):\n  File \"/home/{u}/projects/etl/run.py\", line 88, in <module>", "mkowalczyk"),
    ("error: could not open '/home/{u}/.config/app/settings.toml'", "zhangjunhao"),
    ("Permission denied: /home/{u}/.ssh/id_rsa", "ofernandes"),
]:
    S("home_linux", "path", layout.format(u=user), user)
for layout, user in [
    ("/Users/{u}/Library/Caches/pip/wheels", "haruka.sato"),
    ("  at Object.<anonymous> (/Users/{u}/dev/shop/server.js:12:9)", "beatrizlima"),
]:
    S("home_macos", "path", layout.format(u=user), user)
for layout, user in [
    ("FileNotFoundError: [Errno 2] No such file or directory: 'C:\\\\Users\\\\{u}\\\\AppData\\\\Roaming\\\\tool\\\\cfg.json'", "jmoreau"),
    ("PS C:\\Users\\{u}\\source\\repos\\Billing> dotnet build", "seo.minji"),
]:
    S("home_windows", "path", layout.format(u=user), user)

# =============================================================== BENIGN
for layout in [
    "commit {h}\nMerge: {s1} {s2}\nDate:   Thu Nov 26 10:11:12 2026 +0000\n\n    fix flaky test",
    "git cherry-pick {h}",
    "HEAD is now at {s1} bump deps",
    "Bisecting: 12 revisions left to test after this (roughly 4 steps)\n[{h}] refactor parser",
    "rev = \"{h}\"",
    "  - uses: actions/checkout@{h}  # v4.2.2",
    "fatal: bad object {h}",
    "提交 {s1} 修复了这个问题",
]:
    B("git_sha", layout.format(h=rs(HEX, 40), s1=rs(HEX, 7), s2=rs(HEX, 7)), "zh" if "提交" in layout else None)

for layout in [
    "sha256sum node-v22.11.0-linux-x64.tar.xz\n{h}  node-v22.11.0-linux-x64.tar.xz",
    "checksum = \"{h}\"",
    "Digest: sha256:{h}",
    "SHA-512 (release.zip) = {h}" + rs(HEX, 64),
    "etag: \"{m}\"",
    "md5: {m}",
]:
    B("content_hash", layout.format(h=rs(HEX, 64), m=rs(HEX, 32)))

for layout in [
    "FROM python:3.12-slim@sha256:{h}",
    "image: ghcr.io/acme/api@sha256:{h}",
    "Pulling fs layer {s}\nDigest: sha256:{h}\nStatus: Downloaded newer image",
]:
    B("image_digest", layout.format(h=rs(HEX, 64), s=rs(HEX, 12)))

for layout in [
    "\"integrity\": \"sha512-{v}==\"",
    "resolved \"https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#{s}\"\n  integrity sha512-{v}==",
    "github.com/stretchr/testify v1.9.0 h1:{g}=",
    "checksum = \"{h}\"  # Cargo.lock serde 1.0.215",
]:
    B("lockfile_hash", layout.format(v=rs(B64, 86), s=rs(HEX, 40), g=rs(B64, 43), h=rs(HEX, 64)))

def uuid4():
    h = rs(HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{R.choice('89ab')}{h[17:20]}-{h[20:]}"


for layout, lang in [
    ("request_id={u} status=200 duration_ms=41", None),
    ("Deleted experience {u}", None),
    ("INSERT INTO jobs (id, state) VALUES ('{u}', 'queued');", None),
    ("trace: {u} span: {s}", None),
    ("任务 {u} 已完成", "zh"),
    ("ジョブ {u} が失敗しました", "ja"),
    ("correlationId: {u}", None),
    ("\"tenant_id\": \"{u}\"", None),
    ("az account set --subscription {u}", None),
    ("Volume {u} attached to instance", None),
]:
    B("uuid", layout.format(u=uuid4(), s=rs(HEX, 16)), lang)

for layout, data in [
    ("echo {v} | base64 -d  # prints the greeting", "hello world from the build bot\n"),
    ("cursor={v}", '{"page":3,"per_page":50}'),
    ("data:image/svg+xml;base64,{v}", '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="7"/></svg>'),
    ("X-Request-Meta: {v}", '{"client":"cli","version":"2.4.1"}'),
    ("annotations:\n  config.hash: {v}", "replicas=3;image=api:2.4.1"),
    ("msg body (b64): {v}", "Your order has shipped. Tracking number follows in a separate email."),
    ("state={v}", '{"returnTo":"/dashboard","nonce":"n-0S6_WzA2Mj"}'),
    ("content: {v}", "# README\n\nInstall with pip.\n"),
]:
    B("base64_nonsecret", layout.format(v=base64.b64encode(data.encode()).decode()))

for t, lang in [
    ("Successfully installed numpy-2.1.3 pandas-2.2.3 scipy-1.14.1", None),
    ("Chrome/131.0.6778.86 Safari/537.36", None),
    ("Microsoft Windows [Version 10.0.22631.4460]", None),
    ("OpenSSL 3.0.13 30 Jan 2024 (Library: OpenSSL 3.0.13 30 Jan 2024)", None),
    ("go version go1.23.3 linux/amd64", None),
    ("kernel 6.8.0-49-generic #49~22.04.1-Ubuntu", None),
    ("升级到 v2.14.3 后问题消失", "zh"),
    ("Bump com.fasterxml.jackson.core:jackson-databind from 2.17.2 to 2.18.1", None),
    ("Xcode 16.1 (16B40)", None),
    ("android:versionName=\"4.12.0.2031\"", None),
    ("SNMP OID 1.3.6.1.2.1.1.3.0 returned 12345678", None),
]:
    B("version_string", t, lang)

for n, layout in zip(range(8), [
    "test card {v} declined as expected (invalid number)",
    "card_number: {v}",
    "卡号 {v} 校验失败",
    "PAN {v}",
    "Kartennummer {v} ungültig",
    "invoice line: {v}",
    "{v}",
    "numéro {v}",
]):
    prefix, length = [("4", 16), ("51", 16), ("62", 19), ("37", 15), ("4", 16), ("6011", 16), ("35", 16), ("55", 16)][n]
    v = bad_last(card(prefix, length), luhn_ok)
    assert not luhn_ok(v)
    v = spaced(v) if n % 2 == 0 else v
    B("invalid_card", layout.format(v=v), {2: "zh", 4: "de", 7: "fr"}.get(n))

for cc, bban, layout, lang in [
    ("DE", rs(DG, 18), "IBAN {v}", "de"),
    ("GB", "MIDL" + rs(DG, 14), "account ref {v}", None),
    ("FR", rs(DG, 23), "IBAN : {v}", "fr"),
    ("NL", "INGB" + rs(DG, 10), "ref {v}", None),
    ("ES", rs(DG, 20), "IBAN {v}", "es"),
    ("IT", "X" + rs(DG, 22), "IBAN {v}", "it"),
]:
    good = iban(cc, bban)
    chk = int(good[2:4])
    for delta in range(1, 97):
        cand = f"{cc}{(chk + delta) % 97 + 2 if (chk + delta) % 97 + 2 < 100 else 2:02d}{bban}"
        if not iban_ok(cand):
            break
    assert not iban_ok(cand)
    B("invalid_iban", layout.format(v=spaced(cand) if lang else cand), lang)

for layout, lang in [("身份证号 {v} 校验位错误", "zh"), ("id_card={v}", None), ("证件号：{v}", "zh"), ("INSERT INTO t VALUES ('{v}')", None)]:
    good = cn_id("320102", f"{R.randint(1970, 2000)}0{R.randint(1, 9)}1{R.randint(0, 9)}")
    alts = [c for c in "0123456789X" if c != good[-1]]
    v = good[:-1] + R.choice(alts)
    assert not cn_id_ok(v)
    B("invalid_cn_id", layout.format(v=v), lang)

for _ in range(2):
    d = rs(DG, 6)
    c = hkid_check("C", d)
    wrong = R.choice([x for x in "0123456789A" if x != c])
    B("invalid_hkid", f"HKID field rejected: C{d}({wrong})")
for _ in range(2):
    g = tw_id()
    wrong = R.choice([x for x in DG if x != g[-1]])
    B("invalid_tw_id", f"身分證字號格式錯誤：{g[:-1]}{wrong}", "zh-Hant")
for _ in range(2):
    g = my_number()
    v = bad_last(g, my_number_ok)
    B("invalid_my_number", f"番号 {v} はチェックデジットが一致しません", "ja")
for _ in range(2):
    g = rrn(f"{R.randint(70, 99)}0{R.randint(1, 9)}1{R.randint(0, 9)}", "1")
    v = bad_last(g, rrn_ok)
    B("invalid_kr_rrn", f"검증 실패: {v}", "ko")
for _ in range(2):
    n = R.randint(10000000, 99999999)
    good = "TRWAGMYFPDXBNJZSQVHLCKE"[n % 23]
    wrong = R.choice([c for c in "TRWAGMYFPDXBNJZSQVHLCKE" if c != good])
    B("invalid_dni", f"DNI {n}{wrong} no válido (letra incorrecta)", "es")

for t, lang in [
    ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", None),
    ("export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", None),
    ("OPENAI_API_KEY=sk-...your-key-here...", None),
    ("Stripe test card: 4242 4242 4242 4242, any future date, any CVC", None),
    ("Replace <YOUR_API_KEY> with the key from the dashboard.", None),
    ("curl -u username:password https://api.example.com/v1/items", None),
    ("Contact support at user@example.com or admin@example.org", None),
    ("Call (555) 555-0123 for the demo line", None),
    ("DATABASE_URL=postgres://user:pass@localhost:5432/dbname", None),
    ("Beispiel: IBAN DE00 0000 0000 0000 0000 00", "de"),
    ("在配置文件中填写 api_key: YOUR_KEY_HERE", "zh"),
    ("SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXXXXXXXX/XXXXXXXXX/XXXXXXXXXXXXXXXXXXXXXXXX", None),
    ("-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----", None),
]:
    B("doc_example", t, lang)

for t, lang in [
    ("DB_PASSWORD=${DB_PASSWORD}", None),
    ("password: \"{{ .Values.db.password }}\"", None),
    ("env:\n  - name: API_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: api-secrets\n        key: token", None),
    ("token: ${{ secrets.NPM_TOKEN }}", None),
    ("export PGPASSWORD=$(vault kv get -field=password secret/db/prod)", None),
    ("api_key = os.environ[\"OPENAI_API_KEY\"]", None),
    ("const secret = process.env.JWT_SECRET ?? throwMissing('JWT_SECRET');", None),
    ("password = %(db_password)s", None),
    ("mysql -u app -p  # prompts for the password", None),
    ("redis-cli -a \"$REDIS_PASSWORD\" ping", None),
    ("password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256", None),
    ("密码请从 1Password 的 “生产数据库” 条目中获取", "zh"),
    ("PASSWORD=<set me>", None),
    ("Authorization: Bearer $TOKEN", None),
]:
    B("placeholder_reference", t, lang)

for t, lang in [
    ("Order #20261127-884213 shipped via DHL", None),
    ("订单号 DD202611271530428861 已发货", "zh"),
    ("Invoice INV-2026-004417 total 1,249.00 EUR", None),
    ("Bestellnummer 4000187243 wurde storniert", "de"),
    ("注文番号 112-4839201-7730245", "ja"),
    ("tracking: 1Z999AA10123456784", None),
    ("PR #48213 merged into main", None),
    ("ticket OPS-19283 reopened", None),
]:
    B("order_number", t, lang)

for t in [
    "ts=1764233482117 level=info msg=\"flush complete\"",
    "2026-11-27T08:31:22.481+08:00 INFO server started",
    "Last-Modified: Fri, 27 Nov 2026 09:12:01 GMT",
    "created_at: 1764233482",
    "[27/Nov/2026:10:01:02 +0000] GET /health 200",
    "backup-20261127-031500.tar.zst",
    "next run at 2026-12-01 00:00:00 UTC (cron 0 0 1 * *)",
    "uptime 13842211 seconds",
]:
    B("timestamp", t)

for t, lang in [
    ("Transferred 13812345678 bytes in 00:02:11", None),
    ("latency_ns=15987654321", None),
    ("Total rows scanned: 18600012345", None),
    ("共处理 13912345678 条日志", "zh"),
    ("counter{{shard=\"7\"}} 2125550123".format(), None),
    ("Block height 0912345678 reached", None),
    ("offset=0612345678 partition=3", None),
    ("memory: 01012345678 B used", None),
    ("lines 4155550199 to 4155550299", None),
]:
    B("phone_shaped_number", t, lang)

for t in [
    "def get_aws_secret_access_key(profile: str) -> str:",
    "const PASSWORD_MIN_LENGTH = 12;",
    "class GithubTokenProvider implements TokenProvider {",
    "if (!isValidIban(input)) return Err(InvalidIban);",
    "fn redact_bearer_token(s: &str) -> String",
    "SECRET_KEY_ENV_VAR_NAME = \"APP_SECRET_KEY\"",
    "import { StripeSecretKeyLoader } from './stripe';",
    "let ssn_regex_version = 3;",
    "private static final String PASSWORD_FIELD = \"password\";",
    "userPasswordHashAlgorithm: argon2id",
]:
    B("code_identifier", t)

for t in [
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rs(B64, 43) + " ci@build",
    "-----BEGIN PUBLIC KEY-----\n" + "\n".join(b64body("MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 4)) + "\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\n" + "\n".join(b64body("MIIDdzCCAl+gAwIBAgIE", 4)) + "\n-----END CERTIFICATE-----",
    "github.com ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + rs(B64, 80) + "=",
    "age recipient: age1" + rs("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58),
]:
    B("public_key", t)

for t in [
    "The key fingerprint is SHA256:" + rs(B64, 43) + " ci@build",
    "gpg: using RSA key " + rs(HEX.upper(), 40),
    "ED25519 key fingerprint is MD5:" + ":".join(rs(HEX, 2) for _ in range(16)) + ".",
]:
    B("fingerprint", t)

for t in [
    "Listening on http://127.0.0.1:8080",
    "bind 0.0.0.0:5432",
    "curl http://[::1]:9090/metrics",
    "The docs use 192.0.2.10 and 2001:db8::1 as examples",
    "server listening on localhost:3000",
]:
    B("localhost_or_doc_address", t)

for t in ["nameserver 8.8.8.8", "dig @1.1.1.1 example.com +short"]:
    B("well_known_public_ip", t)

for t, lang in [
    ("Never commit your AWS secret access key; rotate it if it leaks.", None),
    ("密码长度至少 12 位，且必须包含数字和符号。", "zh"),
    ("密碼錯誤次數過多，帳號已鎖定 15 分鐘。", "zh-Hant"),
    ("パスワードは定期的に変更してください。", "ja"),
    ("비밀번호를 잊으셨나요? 이메일로 재설정 링크를 보내드립니다.", "ko"),
    ("Das Passwort muss mindestens 12 Zeichen lang sein.", "de"),
    ("Le jeton d'accès a expiré, reconnectez-vous.", "fr"),
    ("La clave API se guarda en el gestor de secretos, no en el código.", "es"),
    ("Il token è scaduto: rigeneralo dalla console.", "it"),
    ("Het wachtwoord is gewijzigd.", "nl"),
    ("Токен истёк, войдите снова.", "ru"),
    ("I rotated the GitHub token and updated the CI secret; nothing else changed.", None),
]:
    B("prose_about_secrets", t, lang)

for t in [
    "Traceback (most recent call last):\n  File \"/usr/lib/python3.12/json/decoder.py\", line 355, in raw_decode\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
    "thread 'main' panicked at src/main.rs:42:5:\ncalled `Option::unwrap()` on a `None` value",
    "java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"token\" is null\n\tat com.acme.auth.TokenFilter.doFilter(TokenFilter.java:57)",
    "Error: ENOENT: no such file or directory, open '/app/config/secrets.json'",
    "goroutine 1 [running]:\nmain.loadPassword(...)\n\t/src/cmd/server/main.go:88 +0x1d",
]:
    B("stack_trace", t)

for t in [
    "/home/runner/work/knowhub/knowhub/target/debug/build",
    "/root/.cargo/registry/index",
    "C:\\Users\\Public\\Documents\\setup.log",
    "/Users/Shared/Adobe/Installer",
    "~/.config/nvim/init.lua",
    "$HOME/.local/bin/uv",
    "/github/home/.npm/_cacache",
    "C:\\Users\\Default\\AppData\\Local",
]:
    B("system_home", t)

for t in [
    "pod/api-7d9f8c6b5d-x2k4q   1/1   Running   0   3d",
    "replicaset.apps/worker-5b7c9d8f4   3   3   3   12d",
    "node/ip-10-0-0-0.ec2.internal Ready",
    "deployment.apps/frontend restarted",
    "job.batch/db-migrate-28991715 Complete",
]:
    B("k8s_name", t)

for t in [
    "traceparent: 00-" + rs(HEX, 32) + "-" + rs(HEX, 16) + "-01",
    "x-amz-request-id: " + rs(HEX.upper(), 16),
    "x-amz-id-2: " + rs(B64, 76),
    "cf-ray: " + rs(HEX, 16) + "-FRA",
    "X-Cloud-Trace-Context: " + rs(HEX, 32) + "/" + rs(DG, 19) + ";o=1",
]:
    B("request_or_trace_id", t)

for t in [
    "ISBN 978-3-16-148410-0",
    "doi:10.1145/3368089.3409696",
    "arXiv:2310.06825v1",
    "RFC 7519 section 4.1.2",
]:
    B("reference_number", t)

for t in [
    "arn:aws:iam::123456789012:role/ReadOnly",
    "arn:aws:s3:::acme-build-artifacts/releases/2.4.1/",
    "projects/acme-prod/locations/europe-west1/services/api",
    "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-web",
]:
    B("resource_name", t)

for t in [
    "pk_live_" + rs(ALNUM, 24) + "  # publishable key, safe in the browser",
    "NEXT_PUBLIC_POSTHOG_KEY=phc_" + rs(ALNUM, 43),
    "<script src=\"https://js.stripe.com/v3/\" data-key=\"pk_test_" + rs(ALNUM, 24) + "\"></script>",
]:
    B("publishable_key", t)

for t, lang in [
    ("Card ending in 4417 was charged", None),
    ("token: ghp_****************************abcd", None),
    ("api_key=sk-...Q3xZ (masked)", None),
    ("手机号 138****5678 已绑定", "zh"),
    ("IBAN: DE** **** **** **** **34 56", "de"),
    ("SSN: ***-**-1234", None),
    ("password: ********", None),
]:
    B("masked_value", t, lang)

for t in [
    "color: #3a7bd5; background: #f5f7fa;",
    "matrix([[1.0, 0.0], [0.0, 1.0]]) det=1.0",
    "pi ≈ 3.14159265358979323846",
    "threshold: 0.8374615289",
    "Fibonacci(50) = 12586269025",
    "checksum mod 97 = 1",
]:
    B("numeric_noise", t)

for t in [
    "npm install react@^18.3.1 typescript@~5.6.3",
    "requires-python = \">=3.10,<3.14\"",
    "serde = { version = \"1.0.215\", features = [\"derive\"] }",
]:
    B("dependency_spec", t)

for t in [
    "git@github.com:acme/infra.git",
    "ssh://git@gitlab.com:2222/team/app.git",
    "docker pull registry.acme.io/base/python:3.12",
    "https://github.com/acme/infra/pull/4821/files",
]:
    B("repo_url", t)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    with open(os.path.join(here, "blind2.jsonl"), "w", encoding="utf-8") as f:
        for c in CASES:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    sec = [c for c in CASES if c["kind"] == "secret"]
    ben = [c for c in CASES if c["kind"] == "benign"]
    print(f"{len(sec)} secrets in {len({c['category'] for c in sec})} categories, "
          f"{len(ben)} benign in {len({c['category'] for c in ben})} categories")


if __name__ == "__main__":
    main()
