#!/usr/bin/env python3
"""Writes blind3.jsonl: a third held-out set of secrets, personal data and benign look-alikes.

Written without sight of the redaction rules, their tests or any earlier measurement. Every value
is synthetic, drawn from a seeded generator in the shape each provider or authority publishes;
numbers that carry a check digit are computed valid for secrets and made invalid where a
look-alike is meant to fail the check. Deterministic:
    python3 testdata/secrets/blind3/build_blind3.py
"""
import base64
import json
import os
import random
import string

R = random.Random(0xB1D3_2026)
UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
ALNUM = UP + LO + DG
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = UP + "234567"

CASES = []
COUNTERS = {}


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def pick(seq):
    return R.choice(seq)


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


def b64(data):
    return base64.b64encode(data).decode()


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def rbytes(n):
    return bytes(R.randrange(256) for _ in range(n))


def uuid4():
    h = rs(HEX, 32)
    h = h[:12] + "4" + h[13:16] + pick("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# ---------------------------------------------------------------- check digits

def luhn_ok(num):
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def luhn_complete(body):
    for c in DG:
        if luhn_ok(body + c):
            return body + c
    raise AssertionError


def card(prefix, length):
    body = prefix + rs(DG, length - len(prefix) - 1)
    n = luhn_complete(body)
    assert luhn_ok(n)
    return n


def bad_luhn(prefix, length):
    n = card(prefix, length)
    last = str((int(n[-1]) + R.randrange(1, 10)) % 10)
    n = n[:-1] + last
    assert not luhn_ok(n)
    return n


def group(s, sizes, sep=" "):
    out, i = [], 0
    for k in sizes:
        out.append(s[i:i + k])
        i += k
    return sep.join(out)


def iban_numeric(s):
    return "".join(str(int(c, 36)) for c in s)


def iban(country, bban):
    check = 98 - int(iban_numeric(bban + country + "00")) % 97
    out = f"{country}{check:02d}{bban}"
    assert int(iban_numeric(out[4:] + out[:4])) % 97 == 1
    return out


def iban_ok(s):
    return int(iban_numeric(s[4:] + s[:4])) % 97 == 1


def es_dc(digits):
    w = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]
    d = 11 - sum(int(a) * b for a, b in zip(digits, w)) % 11
    return {11: 0, 10: 1}.get(d, d)


def make_iban(country):
    if country == "DE":
        return iban("DE", rs(DG, 18))
    if country == "FR":
        bank, branch, acct = rs(DG, 5), rs(DG, 5), rs(DG, 11)
        key = 97 - (89 * int(bank) + 15 * int(branch) + 3 * int(acct)) % 97
        return iban("FR", f"{bank}{branch}{acct}{key:02d}")
    if country == "GB":
        return iban("GB", pick(["NWBK", "BARC", "HBUK", "LOYD", "MIDL"]) + rs(DG, 14))
    if country == "ES":
        bank, branch, acct = rs(DG, 4), rs(DG, 4), rs(DG, 10)
        dc = f"{es_dc('00' + bank + branch)}{es_dc(acct)}"
        return iban("ES", bank + branch + dc + acct)
    if country == "NL":
        return iban("NL", pick(["ABNA", "INGB", "RABO", "SNSB", "TRIO"]) + rs(DG, 10))
    if country == "IT":
        return iban("IT", pick(UP) + rs(DG, 10) + rs(DG, 12))
    if country == "CH":
        return iban("CH", rs(DG, 5) + rs(DG, 12))
    if country == "BE":
        first = rs(DG, 10)
        k = int(first) % 97 or 97
        return iban("BE", f"{first}{k:02d}")
    if country == "PL":
        return iban("PL", rs(DG, 24))
    if country == "AT":
        return iban("AT", rs(DG, 16))
    raise KeyError(country)


CN_W = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
CN_AREAS = ["110105", "310115", "440305", "330106", "510107", "420111", "320583", "370202",
            "210102", "500103", "350203", "610113"]


def cn_check(body):
    return "10X98765432"[sum(int(a) * b for a, b in zip(body, CN_W)) % 11]


def cn_id(valid=True):
    y = R.randrange(1962, 2004)
    m = R.randrange(1, 13)
    d = R.randrange(1, 29)
    body = f"{pick(CN_AREAS)}{y}{m:02d}{d:02d}{R.randrange(0, 1000):03d}"
    c = cn_check(body)
    if not valid:
        c = pick([x for x in "0123456789X" if x != c])
    return body + c


def es_dni():
    n = R.randrange(10_000_000, 99_999_999)
    return f"{n:08d}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}"


def es_nie():
    p = R.randrange(3)
    n = R.randrange(1_000_000, 9_999_999)
    return f"{'XYZ'[p]}{n:07d}{'TRWAGMYFPDXBNJZSQVHLCKE'[int(str(p) + f'{n:07d}') % 23]}"


def fr_nir():
    sex = pick("12")
    yy = R.randrange(50, 100)
    mm = R.randrange(1, 13)
    dept = pick(["75", "69", "13", "33", "59", "31", "44", "67", "06", "92"])
    body = f"{sex}{yy:02d}{mm:02d}{dept}{R.randrange(1, 990):03d}{R.randrange(1, 999):03d}"
    key = 97 - int(body) % 97
    return body, f"{key:02d}"


def nl_bsn():
    while True:
        d = [R.randrange(10) for _ in range(8)]
        d[0] = R.randrange(1, 10)
        s = sum(x * w for x, w in zip(d, range(9, 1, -1)))
        last = s % 11
        if last < 10:
            return "".join(map(str, d)) + str(last)


CF_ODD = {}
for _i, _v in enumerate([1, 0, 5, 7, 9, 13, 15, 17, 19, 21]):
    CF_ODD[str(_i)] = _v
    CF_ODD[UP[_i]] = _v
for _c, _v in zip("KLMNOPQRSTUVWXYZ", [2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]):
    CF_ODD[_c] = _v


def cf_even(c):
    return int(c) if c.isdigit() else UP.index(c)


def it_cf():
    cons = "BCDFGHLMNPRSTVZ"
    sur = rs(cons, 3)
    name = rs(cons, 2) + pick("AEIO" + cons)
    yy = f"{R.randrange(50, 100):02d}"
    mon = pick("ABCDEHLMPRST")
    day = R.randrange(1, 29) + pick([0, 40])
    town = pick(["H501", "F205", "L219", "G273", "D612", "A944", "F839"])
    body = f"{sur}{name}{yy}{mon}{day:02d}{town}"
    total = sum(CF_ODD[c] if i % 2 == 0 else cf_even(c) for i, c in enumerate(body))
    return body + UP[total % 26]


def de_steuer_id():
    while True:
        digits = list(range(10))
        R.shuffle(digits)
        chosen = digits[:9]
        dup = pick(chosen)
        ten = chosen + [dup]
        R.shuffle(ten)
        if ten[0] == 0:
            continue
        product = 10
        for d in ten:
            s = (d + product) % 10 or 10
            product = (s * 2) % 11
        check = 11 - product
        if check == 10:
            check = 0
        return "".join(map(str, ten)) + str(check)


def pesel():
    y = R.randrange(1960, 2006)
    m = R.randrange(1, 13) + (20 if y >= 2000 else 0)
    d = R.randrange(1, 29)
    body = f"{y % 100:02d}{m:02d}{d:02d}{R.randrange(10000):04d}"
    w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]
    c = (10 - sum(int(a) * b for a, b in zip(body, w)) % 10) % 10
    return body + str(c)


def se_personnummer():
    y = R.randrange(50, 100)
    body = f"{y:02d}{R.randrange(1, 13):02d}{R.randrange(1, 29):02d}{R.randrange(1000):03d}"
    full = luhn_complete(body)
    return f"{full[:6]}-{full[6:]}"


def us_ssn():
    while True:
        area = R.randrange(1, 900)
        if area != 666:
            break
    return f"{area:03d}-{R.randrange(1, 100):02d}-{R.randrange(1, 10000):04d}"


def uk_nino():
    first = "ABCEGHJKLMNOPRSTWXYZ"
    second = "ABCEGHJKLMNPRSTWXYZ"
    while True:
        p = pick(first) + pick(second)
        if p not in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
            break
    return f"{p}{rs(DG, 6)}{pick('ABCD')}"


def mrz_val(c):
    if c == "<":
        return 0
    if c.isdigit():
        return int(c)
    return UP.index(c) + 10


def mrz_check(s):
    w = [7, 3, 1]
    return str(sum(mrz_val(c) * w[i % 3] for i, c in enumerate(s)) % 10)


def mrz_td3(country, surname, given, number, nat, dob, sex, expiry):
    line1 = f"P<{country}{surname}<<{given.replace(' ', '<')}"
    line1 = (line1 + "<" * 44)[:44]
    num = (number + "<" * 9)[:9]
    personal = "<" * 14
    l2 = (num + mrz_check(num) + nat + dob + mrz_check(dob) + sex + expiry + mrz_check(expiry)
          + personal + mrz_check(personal))
    composite = num + mrz_check(num) + dob + mrz_check(dob) + expiry + mrz_check(expiry) \
        + personal + mrz_check(personal)
    l2 = l2 + mrz_check(composite)
    assert len(l2) == 44, l2
    return line1, l2


def cn_mobile():
    return pick(["138", "139", "158", "186", "135", "177", "199", "152", "187", "133", "166"]) + rs(DG, 8)


def us_phone():
    area = pick(["415", "646", "312", "206", "512", "617", "303", "425", "213", "718"])
    return area, f"{R.randrange(200, 1000)}", rs(DG, 4)


def jwt(payload, alg="HS256"):
    h = b64url(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    p = b64url(json.dumps(payload, separators=(",", ":")).encode())
    sig = b64url(rbytes(32 if alg.startswith("HS") else 256))
    return f"{h}.{p}.{sig}"


def pem_body(prefix, nbytes, width=64):
    raw = prefix + b64(rbytes(nbytes))
    raw = raw[: len(raw) - (len(raw) % 4)]
    return [raw[i:i + width] for i in range(0, len(raw), width)]


def pw(n=None, special="!@#%^&*_-+=.?"):
    n = n or R.randrange(10, 18)
    while True:
        s = rs(ALNUM + special, n)
        if any(c in DG for c in s) and any(c in special for c in s) and s[0] in ALNUM:
            return s


def word_pw():
    words = ["Tiger", "Maple", "Orbit", "Lemon", "River", "Falcon", "Cobalt", "Harbor", "Quartz",
             "Willow", "Summit", "Ember", "Pixel", "Nimbus", "Saffron", "Juniper"]
    return f"{pick(words)}{pick(words)}{R.randrange(10, 9999)}{pick('!@#$%&*')}"


# ================================================================ secrets: cloud

def cloud():
    f = "cloud"
    ak = lambda p="AKIA": p + rs(UP + "234567", 16)
    sk = lambda: rs(ALNUM + "+/", 40)
    k = ak()
    S("aws_access_key_id", f, f"$ aws sts get-caller-identity --profile ci\nUsing credentials from env: AWS_ACCESS_KEY_ID={k}", k)
    k = ak()
    S("aws_access_key_id", f, f"2026-11-26 22:41:07 WARN s3uploader: retrying PutObject (attempt 3/5) access_key={k} bucket=reports-prod", k)
    k = ak("ASIA")
    S("aws_access_key_id", f, f"临时凭证拿到了：AccessKeyId 是 {k}，一小时后过期", k, "zh")
    k = ak()
    S("aws_access_key_id", f, f"      - name: AWS_ACCESS_KEY_ID\n        value: \"{k}\"", k)
    k = ak()
    S("aws_access_key_id", f, f"Terraform failed because provider \"aws\" {{ access_key = \"{k}\" }} was hard-coded in main.tf; moved it to a variable.", k)

    s = sk()
    S("aws_secret_access_key", f, f"[default]\naws_access_key_id = {ak()}\naws_secret_access_key = {s}", s)
    s = sk()
    S("aws_secret_access_key", f, f"docker run --rm -e AWS_SECRET_ACCESS_KEY={s} -e AWS_REGION=ap-southeast-1 amazon/aws-cli s3 ls", s)
    s = sk()
    S("aws_secret_access_key", f, f"const s3 = new S3Client({{ credentials: {{ accessKeyId: process.env.AK, secretAccessKey: \"{s}\" }} }});", s)
    s = sk()
    S("aws_secret_access_key", f, f"La clave secreta de AWS es {s}, la rotamos mañana.", s, "es")
    s = sk()
    S("aws_secret_access_key", f, f"rclone config: [s3-backup]\ntype = s3\nprovider = AWS\nsecret_access_key = {s}", s)

    t = "FwoGZXIvYXdzE" + rs(B64, 300)
    S("aws_session_token", f, f"\"SessionToken\": \"{t}\",", t)
    t = "IQoJb3JpZ2luX2Vj" + rs(B64, 340)
    S("aws_session_token", f, f"export AWS_SESSION_TOKEN='{t}'", t)

    for _ in range(3):
        proj = pick(["atlas-etl", "billing-prod", "ml-train", "kh-agents"]) + f"-{R.randrange(100000, 999999)}"
        lines = pem_body("MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQ", 600)
        body = "\\n".join(lines)
        txt = ("{\n  \"type\": \"service_account\",\n  \"project_id\": \"%s\",\n  \"private_key_id\": \"%s\",\n"
               "  \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n%s\\n-----END PRIVATE KEY-----\\n\",\n"
               "  \"client_email\": \"deployer@%s.iam.gserviceaccount.com\",\n  \"client_id\": \"%s\"\n}"
               % (proj, rs(HEX, 40), body, proj, rs(DG, 21)))
        S("gcp_service_account_key", f, txt, body)

    for tpl in ["Error 403 from https://translation.googleapis.com/language/translate/v2?key={k}&q=hello: API not enabled",
                "firebaseConfig = {{ apiKey: \"{k}\", authDomain: \"shop-prod.firebaseapp.com\" }}",
                "GEMINI_API_KEY={k} python agent.py --model gemini-2.0-flash"]:
        k = "AIza" + rs(ALNUM + "-_", 35)
        S("gcp_api_key", f, tpl.format(k=k), k)

    t = "ya29.a0A" + rs(B64URL, 180)
    S("gcp_oauth_access_token", f, f"curl -H \"Authorization: Bearer {t}\" https://www.googleapis.com/drive/v3/files", t)
    t = "1//0" + rs(B64URL, 99)
    S("gcp_oauth_refresh_token", f, f"{{\"refresh_token\": \"{t}\", \"token_uri\": \"https://oauth2.googleapis.com/token\"}}", t)

    for tpl in ["DefaultEndpointsProtocol=https;AccountName=khlogs{n};AccountKey={k};EndpointSuffix=core.windows.net",
                "az storage blob upload --account-name mediastore{n} --account-key \"{k}\" -c uploads -f out.zip",
                "\"AzureWebJobsStorage\": \"DefaultEndpointsProtocol=https;AccountName=func{n};AccountKey={k}\""]:
        k = b64(rbytes(64))
        S("azure_storage_account_key", f, tpl.format(n=R.randrange(10, 99), k=k), k)
    k = b64(rbytes(64))
    S("azure_cosmos_key", f, f"AccountEndpoint=https://orders-db.documents.azure.com:443/;AccountKey={k};", k)

    for tpl in ["https://backupsa.blob.core.windows.net/db/dump.bak?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-12-31T00:00:00Z&spr=https&sig={s}",
                "azcopy copy ./build 'https://webassets.blob.core.windows.net/$web?sp=racwdl&st=2026-11-01&se=2027-01-01&sv=2022-11-02&sr=c&sig={s}' --recursive",
                "Endpoint=sb://events-prod.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={s}"]:
        if "sig=" in tpl:
            s = b64(rbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
        else:
            s = b64(rbytes(32))
        S("azure_sas_token", f, tpl.format(s=s), s)

    for tpl in ["AZURE_CLIENT_SECRET={s}", "az login --service-principal -u {u} -p '{s}' --tenant {t}"]:
        s = rs(ALNUM, 3) + "8Q~" + rs(ALNUM + "_~.-", 34)
        S("azure_client_secret", f, tpl.format(s=s, u=uuid4(), t=uuid4()), s)
    s = rs(HEX, 32)
    S("azure_openai_key", f, f"curl https://kh-openai.openai.azure.com/openai/deployments/gpt4o/chat/completions?api-version=2024-06-01 -H \"api-key: {s}\" -d @req.json", s)
    s = rs(LO + "234567", 52)
    S("azure_devops_pat", f, f"git clone https://build:{s}@dev.azure.com/contoso/Platform/_git/infra", s)

    for tpl, lang in [("阿里云 AccessKey ID: {k}\nAccessKey Secret: {s}", "zh"),
                      ("ALIBABA_CLOUD_ACCESS_KEY_ID={k}", None),
                      ("aliyun configure set --profile oss --mode AK --access-key-id {k} --access-key-secret {s} --region cn-hangzhou", None),
                      ("OSS 上传失败 InvalidAccessKeyId，检查了一下 accessKeyId='{k}' 已经被禁用了", "zh")]:
        k = "LTAI5t" + rs(ALNUM, 18)
        s = rs(ALNUM, 30)
        S("alibaba_access_key_id", f, tpl.format(k=k, s=s), k, lang)
    s = rs(ALNUM, 30)
    S("alibaba_access_key_secret", f, f"oss:\n  endpoint: oss-cn-shanghai.aliyuncs.com\n  access-key-id: LTAI5t{rs(ALNUM, 18)}\n  access-key-secret: {s}", s)
    s = rs(ALNUM, 30)
    S("alibaba_access_key_secret", f, f"阿里云的 AccessKeySecret={s}，千万别提交到 git", s, "zh")

    for tpl, lang in [("TENCENTCLOUD_SECRET_ID={k}", None),
                      ("腾讯云 COS 配置：SecretId: {k}  SecretKey: {s}", "zh"),
                      ("cred = credential.Credential(\"{k}\", \"{s}\")", None)]:
        k = "AKID" + rs(ALNUM, 32)
        s = rs(ALNUM, 32)
        S("tencent_secret_id", f, tpl.format(k=k, s=s), k, lang)
    s = rs(ALNUM, 32)
    S("tencent_secret_key", f, f"tccli configure set secretKey {s}", s)
    s = rs(ALNUM, 32)
    S("tencent_secret_key", f, f"export TENCENTCLOUD_SECRET_KEY=\"{s}\"", s)

    k, s = rs(UP + DG, 20), rs(ALNUM, 40)
    S("huawei_cloud_secret_key", f, f"华为云 OBS: ak={k} sk={s}", s, "zh")
    k = rs(ALNUM + "-_", 40)
    S("qiniu_secret_key", f, f"qshell account {rs(ALNUM + '-_', 40)} {k} kh-cdn", k)
    t = "dop_v1_" + rs(HEX, 64)
    S("digitalocean_token", f, f"doctl auth init --access-token {t}", t)
    t = rs(ALNUM + "_-", 40)
    S("cloudflare_api_token", f, f"curl -X GET \"https://api.cloudflare.com/client/v4/user/tokens/verify\" -H \"Authorization: Bearer {t}\"", t)
    t = rs(HEX, 37)
    S("cloudflare_global_key", f, f"-H \"X-Auth-Email: ops@khdemo.io\" -H \"X-Auth-Key: {t}\"", t)


# ================================================================ secrets: tokens

BIP39 = ["abandon", "ability", "absorb", "access", "acid", "across", "actor", "adapt", "advice",
         "afford", "agent", "alarm", "album", "alley", "anchor", "angle", "apple", "arena", "armor",
         "banana", "barrel", "basket", "bicycle", "blanket", "bridge", "brown", "cabin", "cactus",
         "camera", "canal", "carbon", "castle", "chalk", "cherry", "circle", "clever", "coconut",
         "copper", "cotton", "crystal", "dolphin", "donkey", "eagle", "engine", "fabric", "garden",
         "giraffe", "harvest", "island", "jungle", "kitchen", "lemon", "marble", "napkin", "orange",
         "pencil", "rabbit", "silver", "tomato", "velvet", "window", "zebra"]


def tokens():
    f = "token"
    for tpl, lang in [("git remote set-url origin https://{t}@github.com/khdemo/agent-runner.git", None),
                      ("GITHUB_TOKEN={t} gh pr create --fill", None),
                      ("我用的 GitHub token 是 {t}，权限只有 repo", "zh"),
                      ("//npm.pkg.github.com/:_authToken={t}", None),
                      ("HttpError: Bad credentials (401) while calling GET /repos/khdemo/infra with token {t}", None)]:
        t = "ghp_" + rs(ALNUM, 36)
        S("github_pat_classic", f, tpl.format(t=t), t, lang)
    for tpl in ["export GH_TOKEN=\"{t}\"", "token: {t}  # fine-grained, expires 2027-01-31",
                "Die Pipeline nutzt {t} als Token für das Release-Repo."]:
        t = "github_pat_11" + rs(UP + DG, 20) + "_" + rs(ALNUM, 59)
        S("github_pat_fine_grained", f, tpl.format(t=t), t, "de" if "Die" in tpl else None)
    for p, tpl in [("ghs_", "::debug::installation token {t} expires at 2026-11-27T13:00:00Z"),
                   ("gho_", "{{\"access_token\":\"{t}\",\"token_type\":\"bearer\",\"scope\":\"repo,gist\"}}"),
                   ("ghu_", "Authorization: token {t}"),
                   ("ghr_", "refresh_token={t}&grant_type=refresh_token")]:
        t = p + rs(ALNUM, 36)
        S("github_app_token", f, tpl.format(t=t), t)

    for tpl in ["curl --header \"PRIVATE-TOKEN: {t}\" \"https://gitlab.khdemo.cn/api/v4/projects/42/pipelines\"",
                "git clone https://oauth2:{t}@gitlab.com/khdemo/platform/search.git",
                "GITLAB_TOKEN={t}",
                "gitlab 的个人访问令牌 {t} 今天到期，记得续"]:
        t = "glpat-" + rs(ALNUM + "-_", 20)
        S("gitlab_pat", f, tpl.format(t=t), t, "zh" if "令牌" in tpl else None)
    t = "glrt-" + rs(ALNUM + "-_", 20)
    S("gitlab_runner_token", f, f"gitlab-runner register --non-interactive --url https://gitlab.com --token {t} --executor docker", t)
    t = "GR1348941" + rs(ALNUM + "-_", 20)
    S("gitlab_runner_token", f, f"[[runners]]\n  name = \"build-02\"\n  token = \"{t}\"", t)

    t = "ATBB" + rs(ALNUM, 28) + rs(HEXU, 8)
    S("bitbucket_app_password", f, f"git clone https://jchen:{t}@bitbucket.org/khdemo/mobile.git", t)
    t = "ATBB" + rs(ALNUM, 28) + rs(HEXU, 8)
    S("bitbucket_app_password", f, f"BITBUCKET_APP_PASSWORD={t}", t)
    t = rs(ALNUM, 20)
    S("bitbucket_app_password", f, f"curl -u marta.v:{t} https://api.bitbucket.org/2.0/repositories/khdemo", t)
    t = "ATCTT3xFfGN0" + rs(ALNUM + "-_", 180) + "=" + rs(HEXU, 8)
    S("bitbucket_access_token", f, f"Authorization: Bearer {t}", t)

    for tpl in ["stripe.api_key = \"{t}\"", "STRIPE_SECRET_KEY={t}",
                "curl https://api.stripe.com/v1/charges -u {t}: -d amount=2000 -d currency=eur",
                "El webhook falla porque usamos la clave {t} del entorno de producción."]:
        t = "sk_live_" + rs(ALNUM, pick([24, 99]))
        S("stripe_secret_key", f, tpl.format(t=t), t, "es" if "El " in tpl else None)
    t = "rk_live_" + rs(ALNUM, 99)
    S("stripe_restricted_key", f, f"STRIPE_RESTRICTED_KEY: \"{t}\"", t)
    t = "whsec_" + rs(ALNUM, 32)
    S("stripe_webhook_secret", f, f"stripe listen --forward-to localhost:4242/webhook\n> Ready! Your webhook signing secret is {t} (^C to quit)", t)
    t = "whsec_" + rs(ALNUM, 32)
    S("stripe_webhook_secret", f, f"endpoint_secret = '{t}'", t)

    t = rs(HEX, 32)
    S("twilio_auth_token", f, f"client = Client(\"AC{rs(HEX, 32)}\", \"{t}\")", t)
    t = rs(HEX, 32)
    S("twilio_auth_token", f, f"TWILIO_AUTH_TOKEN={t}", t)
    t = rs(HEX, 32)
    S("twilio_auth_token", f, f"curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC{rs(HEX, 32)}/Messages.json -u AC{rs(HEX, 32)}:{t}", t)
    t = "SK" + rs(HEX, 32)
    S("twilio_api_key", f, f"TWILIO_API_KEY={t}\nTWILIO_API_SECRET={rs(ALNUM, 32)}", t)

    for tpl in ["SENDGRID_API_KEY='{t}'", "sg = SendGridAPIClient(api_key=\"{t}\")",
                "smtp.sendgrid.net:587 user=apikey pass={t}"]:
        t = "SG." + rs(ALNUM + "-_", 22) + "." + rs(ALNUM + "-_", 43)
        S("sendgrid_api_key", f, tpl.format(t=t), t)
    t = "key-" + rs(HEX, 32)
    S("mailgun_api_key", f, f"curl -s --user 'api:{t}' https://api.mailgun.net/v3/mg.khdemo.io/messages", t)
    t = rs(HEX, 32) + "-us" + str(R.randrange(1, 21))
    S("mailchimp_api_key", f, f"MAILCHIMP_KEY={t}", t)

    for tpl in ["SLACK_BOT_TOKEN=xoxb-{t}", "app = App(token=\"xoxb-{t}\")",
                "slack api error not_in_channel (token xoxb-{t}, channel C07AB12CD)"]:
        t = f"{R.randrange(10**11, 10**12)}-{R.randrange(10**12, 10**13)}-{rs(ALNUM, 24)}"
        S("slack_bot_token", f, tpl.format(t=t), "xoxb-" + t)
    for tpl in ["SLACK_USER_TOKEN=xoxp-{t}", "Authorization: Bearer xoxp-{t}"]:
        t = f"{R.randrange(10**11, 10**12)}-{R.randrange(10**12, 10**13)}-{R.randrange(10**12, 10**13)}-{rs(HEX, 32)}"
        S("slack_user_token", f, tpl.format(t=t), "xoxp-" + t)
    t = "xapp-1-A" + rs(UP + DG, 10) + "-" + rs(DG, 13) + "-" + rs(HEX, 64)
    S("slack_app_token", f, f"SLACK_APP_TOKEN={t}  # socket mode", t)
    for tpl, lang in [("curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy done\"}}' https://hooks.slack.com/services/T{a}/B{b}/{t}", None),
                      ("alertmanager:\n  receivers:\n  - name: oncall\n    slack_configs:\n    - api_url: https://hooks.slack.com/services/T{a}/B{b}/{t}", None),
                      ("告警发到 Slack 的 webhook 是 https://hooks.slack.com/services/T{a}/B{b}/{t}", "zh")]:
        t = rs(ALNUM, 24)
        S("slack_webhook", f, tpl.format(a=rs(UP + DG, 10), b=rs(UP + DG, 10), t=t), t, lang)

    for tpl in ["client.run('{t}')", "DISCORD_TOKEN={t}", "Bot token leaked in logs: {t}"]:
        uid = str(R.randrange(10**17, 10**19))
        t = b64url(uid.encode()) + "." + rs(B64URL, 6) + "." + rs(B64URL, 38)
        S("discord_bot_token", f, tpl.format(t=t), t)
    for tpl in ["https://discord.com/api/webhooks/{i}/{t}", "DISCORD_WEBHOOK_URL=https://discordapp.com/api/webhooks/{i}/{t}"]:
        t = rs(B64URL, 68)
        S("discord_webhook", f, tpl.format(i=R.randrange(10**17, 10**19), t=t), t)

    for tpl, lang in [("curl https://api.telegram.org/bot{t}/getUpdates", None),
                      ("TELEGRAM_BOT_TOKEN={t}", None),
                      ("BotFather 给的 token：{t}", "zh"),
                      ("bot = telebot.TeleBot(\"{t}\")", None)]:
        t = f"{R.randrange(10**9, 8 * 10**9)}:AA{rs(ALNUM + '-_', 33)}"
        S("telegram_bot_token", f, tpl.format(t=t), t, lang)

    for tpl, lang in [("OPENAI_API_KEY={t}", None),
                      ("openai.AuthenticationError: Error code: 401 - Incorrect API key provided: {t}.", None),
                      ("client = OpenAI(api_key=\"{t}\")", None),
                      ("把 {t} 填到 .env 里就能跑了", "zh")]:
        t = "sk-proj-" + rs(ALNUM + "-_", 156) if R.random() < 0.6 else "sk-" + rs(ALNUM, 20) + "T3BlbkFJ" + rs(ALNUM, 20)
        S("openai_api_key", f, tpl.format(t=t), t, lang)
    t = "sk-svcacct-" + rs(ALNUM + "-_", 140)
    S("openai_api_key", f, f"\"OPENAI_API_KEY\": \"{t}\"", t)
    for tpl, lang in [("export ANTHROPIC_API_KEY={t}", None),
                      ("curl https://api.anthropic.com/v1/messages -H \"x-api-key: {t}\" -H \"anthropic-version: 2023-06-01\"", None),
                      ("Claude のキー {t} をCIのシークレットに入れました", "ja")]:
        t = "sk-ant-api03-" + rs(ALNUM + "-_", 93) + "AA"
        S("anthropic_api_key", f, tpl.format(t=t), t, lang)
    for tpl in ["huggingface-cli login --token {t}", "HF_TOKEN={t}",
                "from huggingface_hub import login; login(\"{t}\")"]:
        t = "hf_" + rs(UP + LO, 34)
        S("huggingface_token", f, tpl.format(t=t), t)
    t = "gsk_" + rs(ALNUM, 52)
    S("groq_api_key", f, f"GROQ_API_KEY={t}", t)
    t = "r8_" + rs(ALNUM, 37)
    S("replicate_api_token", f, f"export REPLICATE_API_TOKEN={t}", t)

    for tpl in ["//registry.npmjs.org/:_authToken={t}", "NPM_TOKEN={t} npm publish --access public",
                "npm ERR! 403 Forbidden - PUT https://registry.npmjs.org/@khdemo%2fcli - token {t} lacks publish rights"]:
        t = "npm_" + rs(ALNUM, 36)
        S("npm_token", f, tpl.format(t=t), t)
    for tpl in ["[pypi]\n  username = __token__\n  password = {t}",
                "twine upload -u __token__ -p {t} dist/*"]:
        t = "pypi-AgEIcHlwaS5vcmc" + rs(B64URL, 150)
        S("pypi_token", f, tpl.format(t=t), t)
    for tpl in ["echo {t} | docker login -u khdemo --password-stdin", "DOCKERHUB_TOKEN: {t}"]:
        t = "dckr_pat_" + rs(ALNUM + "-_", 27)
        S("dockerhub_pat", f, tpl.format(t=t), t)

    for tpl in ["DD_API_KEY={t}", "docker run -d -e DD_API_KEY={t} -e DD_SITE=datadoghq.eu gcr.io/datadoghq/agent:7",
                "api_key: {t}\nsite: datadoghq.com"]:
        t = rs(HEX, 32)
        S("datadog_api_key", f, tpl.format(t=t), t)
    t = rs(HEX, 40)
    S("datadog_app_key", f, f"curl -H \"DD-API-KEY: ${{DD_API_KEY}}\" -H \"DD-APPLICATION-KEY: {t}\" https://api.datadoghq.com/api/v1/monitor", t)

    for tpl in ["SENTRY_DSN=https://{k}@o{o}.ingest.sentry.io/{p}",
                "Sentry.init({{ dsn: \"https://{k}@o{o}.ingest.us.sentry.io/{p}\", tracesSampleRate: 0.2 }});",
                "sentry_sdk.init(dsn='https://{k}@sentry.khdemo.cn/{p}')"]:
        k = rs(HEX, 32)
        S("sentry_dsn", f, tpl.format(k=k, o=R.randrange(10**5, 10**7), p=R.randrange(10**6, 10**7)), k)
    t = "sntrys_" + b64url(json.dumps({"iat": 1764200000, "url": "https://sentry.io", "org": "khdemo"}).encode()) + "_" + rs(ALNUM + "/+", 43)
    S("sentry_auth_token", f, f"SENTRY_AUTH_TOKEN={t} sentry-cli releases new v2.3.1", t)

    t = "shpat_" + rs(HEX, 32)
    S("shopify_token", f, f"X-Shopify-Access-Token: {t}", t)
    t = "lin_api_" + rs(ALNUM, 40)
    S("linear_api_key", f, f"LINEAR_API_KEY={t}", t)
    t = "ntn_" + rs(DG, 11) + rs(ALNUM, 35)
    S("notion_token", f, f"notion = Client(auth=\"{t}\")", t)
    t = "secret_" + rs(ALNUM, 43)
    S("notion_token", f, f"NOTION_TOKEN={t}", t)
    t = "ATATT3xFfGF0" + rs(ALNUM + "-_", 180) + "=" + rs(HEXU, 8)
    S("atlassian_api_token", f, f"curl -u ana.ruiz@khdemo.io:{t} https://khdemo.atlassian.net/rest/api/3/myself", t)
    t = "hvs." + rs(ALNUM, 24)
    S("vault_token", f, f"export VAULT_TOKEN={t}\nvault kv get secret/payments", t)
    t = "hvs.CAESI" + rs(ALNUM + "-_", 86)
    S("vault_token", f, f"Vault login succeeded. token  {t}  token_duration 768h", t)
    t = rs(ALNUM, 14) + ".atlasv1." + rs(ALNUM, 67)
    S("terraform_cloud_token", f, f"credentials \"app.terraform.io\" {{\n  token = \"{t}\"\n}}", t)
    t = "NRAK-" + rs(UP + DG, 27)
    S("newrelic_api_key", f, f"NEW_RELIC_API_KEY={t}", t)
    t = "pul-" + rs(HEX, 40)
    S("pulumi_token", f, f"PULUMI_ACCESS_TOKEN={t} pulumi up --yes", t)
    t = "glsa_" + rs(ALNUM, 32) + "_" + rs(HEX, 8)
    S("grafana_token", f, f"curl -H \"Authorization: Bearer {t}\" https://grafana.khdemo.io/api/dashboards/uid/abc", t)
    t = "glc_" + b64(json.dumps({"o": str(R.randrange(10**6)), "n": "agent", "k": rs(ALNUM, 24), "m": {"r": "prod-eu-west-2"}}).encode()).rstrip("=")
    S("grafana_token", f, f"GRAFANA_CLOUD_TOKEN={t}", t)
    t = "dp.st.prd." + rs(ALNUM, 40)
    S("doppler_token", f, f"doppler run --token {t} -- npm start", t)
    t = "sk.eyJ1Ijoia2hkZW1vIiwiYSI6I" + rs(ALNUM, 30) + "." + rs(ALNUM + "-_", 22)
    S("mapbox_secret_token", f, f"MAPBOX_DOWNLOADS_TOKEN={t}", t)
    t = "sbp_" + rs(HEX, 40)
    S("supabase_token", f, f"supabase login --token {t}", t)
    t = "PMAK-" + rs(HEX, 24) + "-" + rs(HEX, 34)
    S("postman_api_key", f, f"X-Api-Key: {t}", t)
    t = "figd_" + rs(ALNUM + "-_", 40)
    S("figma_token", f, f"FIGMA_TOKEN={t}", t)
    t = uuid4()
    S("heroku_api_key", f, f"HEROKU_API_KEY={t} heroku apps:info -a kh-api", t)
    t = "AAAA" + rs(ALNUM + "-_", 7) + ":APA91b" + rs(ALNUM + "-_", 134)
    S("firebase_fcm_server_key", f, f"Authorization: key={t}", t)
    t = "AGE-SECRET-KEY-1" + rs("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".upper(), 58)
    S("age_secret_key", f, f"# created: 2026-11-20T10:00:00Z\n# public key: age1{rs('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}\n{t}", t)
    t = b64(rbytes(32))
    S("wireguard_private_key", f, f"[Interface]\nPrivateKey = {t}\nAddress = 10.8.0.2/24\nDNS = 1.1.1.1", t)
    t = "0x" + rs(HEX, 64)
    S("eth_private_key", f, f"DEPLOYER_PRIVATE_KEY={t} npx hardhat run scripts/deploy.ts --network sepolia", t)
    t = rs(HEX, 64)
    S("eth_private_key", f, f"钱包私钥：{t}（测试网用的，但也别外传）", t, "zh")
    m = " ".join(pick(BIP39) for _ in range(12))
    S("wallet_mnemonic", f, f"MNEMONIC=\"{m}\"", m)
    m = " ".join(pick(BIP39) for _ in range(24))
    S("wallet_mnemonic", f, f"Seed phrase for the staging wallet: {m}", m)
    t = rs(B32, 32)
    S("totp_secret", f, f"otpauth://totp/KnowHub:ops@khdemo.io?secret={t}&issuer=KnowHub", t)
    t = rs(B32, 16)
    S("totp_secret", f, f"2FA backup: setup key {t[:4]} {t[4:8]} {t[8:12]} {t[12:]}", f"{t[:4]} {t[4:8]} {t[8:12]} {t[12:]}")

    t = "django-insecure-" + rs(LO + DG + "!@#$%^&*(-_=+)", 50)
    S("app_secret_key", f, f"SECRET_KEY = '{t}'", t)
    t = rs(HEX, 128)
    S("app_secret_key", f, f"production:\n  secret_key_base: {t}", t)
    t = rs(ALNUM, 48)
    S("app_secret_key", f, f"JWT_SECRET={t}", t)
    t = b64(rbytes(32))
    S("app_secret_key", f, f"NEXTAUTH_SECRET=\"{t}\"", t)
    t = "base64:" + b64(rbytes(32))
    S("app_secret_key", f, f"APP_KEY={t}", t)

    t = rs(HEX, 32)
    S("wechat_app_secret", f, f"微信小程序 AppID: wx{rs(HEX, 16)}  AppSecret: {t}", t, "zh")
    t = rs(ALNUM + "-_", 43)
    S("wecom_corp_secret", f, f"https://qyapi.weixin.qq.com/cgi-bin/gettoken?corpid=ww{rs(HEX, 16)}&corpsecret={t}", t)
    t = rs(HEX, 64)
    S("dingtalk_webhook", f, f"钉钉机器人 webhook: https://oapi.dingtalk.com/robot/send?access_token={t}", t, "zh")
    t = "SEC" + rs(HEX, 64)
    S("dingtalk_webhook", f, f"dingtalk:\n  secret: {t}", t)
    t = uuid4()
    S("feishu_webhook", f, f"curl -X POST -H \"Content-Type: application/json\" -d '{{\"msg_type\":\"text\",\"content\":{{\"text\":\"build ok\"}}}}' https://open.feishu.cn/open-apis/bot/v2/hook/{t}", t)
    t = rs(ALNUM, 32)
    S("feishu_app_secret", f, f"飞书应用 app_id=cli_{rs(HEX, 16)} app_secret={t}", t, "zh")
    lines = pem_body("MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQ", 560, width=10**6)
    t = lines[0]
    S("alipay_private_key", f, f"alipay:\n  app-id: 2021{rs(DG, 12)}\n  merchant-private-key: {t}", t)


# ================================================================ secrets: http, pem, dsn

def http():
    f = "http"
    for tpl, payload, lang in [
            ("curl -H \"Authorization: Bearer {t}\" https://api.khdemo.io/v1/experiences", {"sub": "agent-17", "role": "admin", "exp": 1795000000}, None),
            ("Cookie: access_token={t}; theme=dark", {"uid": 90211, "email": "l.moreau@khdemo.fr", "iat": 1764150000}, None),
            ("解码这个 JWT 看看 exp：{t}", {"sub": "u_3381", "scope": "read write", "exp": 1764300000}, "zh"),
            ("kubeconfig:\n  users:\n  - name: ci\n    user:\n      token: {t}", {"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": "ci", "sub": "system:serviceaccount:ci:deployer"}, None),
            ("SUPABASE_SERVICE_ROLE_KEY={t}", {"iss": "supabase", "ref": rs(LO, 20), "role": "service_role", "iat": 1730000000}, None),
            ("jwt.exceptions.ExpiredSignatureError: Signature has expired (token={t})", {"user_id": 7, "exp": 1700000000}, None)]:
        t = jwt(payload, pick(["HS256", "RS256"]))
        S("jwt", f, tpl.format(t=t), t, lang)
    for tpl in ["Authorization: Bearer {t}", "wget --header=\"Authorization: Bearer {t}\" https://files.khdemo.io/export.tar.gz",
                "requests.get(url, headers={{\"Authorization\": \"Bearer {t}\"}})", "http GET :8080/admin 'Authorization:Bearer {t}'"]:
        t = rs(ALNUM + "._-", R.randrange(32, 64))
        S("bearer_token", f, tpl.format(t=t), t)
    for tpl in ["Authorization: Basic {t}", "curl -H 'Authorization: Basic {t}' https://registry.khdemo.io/v2/_catalog",
                "proxy_set_header Authorization \"Basic {t}\";"]:
        t = b64(f"{pick(['admin', 'deploy', 'jenkins', 'svc_report'])}:{pw()}".encode())
        S("basic_auth_header", f, tpl.format(t=t), t)
    for tpl in ["Cookie: sessionid={t}; csrftoken={c}", "Set-Cookie: connect.sid=s%3A{t}; Path=/; HttpOnly",
                "document.cookie 里有 PHPSESSID={t}，复制到 Postman 就能登录", "> GET /dashboard HTTP/1.1\n> Host: admin.khdemo.io\n> Cookie: _session_id={t}"]:
        t = rs(LO + DG, 32) if "PHPSESS" in tpl or "sessionid" in tpl else rs(ALNUM + ".-_", 60)
        S("session_cookie", f, tpl.format(t=t, c=rs(ALNUM, 32)), t, "zh" if "复制" in tpl else None)
    for tpl in ["git clone https://{u}:{p}@git.khdemo.io/platform/api.git",
                "pip install --index-url https://{u}:{p}@nexus.khdemo.cn/repository/pypi/simple kh-core",
                "fatal: unable to access 'https://{u}:{p}@gitee.com/khdemo/site.git/': The requested URL returned error: 403",
                "proxy = http://{u}:{p}@proxy.corp.khdemo.io:3128",
                "webdav 地址 https://{u}:{p}@dav.jianguoyun.com/dav/ 挂载失败"]:
        p = pw(special="!_-.~")
        S("url_userinfo_password", f, tpl.format(u=pick(["dev", "jli", "builder", "svc-ci", "marie"]), p=p), p, "zh" if "挂载" in tpl else None)
    for tpl in ["GET /api/v2/report?access_token={t}&format=csv 200 41ms",
                "https://hooks.zapier.com/hooks/catch/123456/abcdef/?api_key={t}",
                "wss://stream.khdemo.io/socket?token={t}&v=2"]:
        t = rs(ALNUM, 40)
        S("url_query_token", f, tpl.format(t=t), t)
    t = rs(ALNUM, 32)
    S("api_key_header", f, f"curl -H \"X-API-Key: {t}\" https://api.khdemo.io/v1/search?q=rust", t)
    t = rs(HEX, 40)
    S("api_key_header", f, f"X-Gitea-Token: {t}", t)
    t = rs(ALNUM, 36)
    S("api_key_header", f, f"fetch('/ingest', {{ headers: {{ 'x-api-key': '{t}' }} }})", t)


def pem():
    f = "pem"
    for label, prefix, n, ctx in [
            ("RSA PRIVATE KEY", "MIIEowIBAAKCAQEA", 1180, "{b}"),
            ("RSA PRIVATE KEY", "MIIEpAIBAAKCAQEA", 1180, "$ cat deploy/id_rsa\n{b}\n$ chmod 600 deploy/id_rsa"),
            ("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", 300, "{b}"),
            ("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn", 1600, "Here is the deploy key I generated (ssh-keygen -t rsa -b 3072):\n{b}"),
            ("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHIAAAAGYmNyeXB0AAAAGAAAABA", 420, "  ssh_key: |\n{ib}"),
            ("EC PRIVATE KEY", "MHcCAQEEI", 110, "{b}"),
            ("EC PRIVATE KEY", "MHcCAQEEI", 110, "server.key 内容如下：\n{b}"),
            ("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 1180, "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE\n-----END CERTIFICATE-----\n{b}"),
            ("PRIVATE KEY", "MC4CAQAwBQYDK2VwBCIEI", 30, "ed25519 key for signing: {b}"),
            ("ENCRYPTED PRIVATE KEY", "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", 1250, "{b}"),
            ("DSA PRIVATE KEY", "MIIBuwIBAAKBgQ", 420, "{b}")]:
        lines = pem_body(prefix, n)
        body = "\n".join(lines)
        block = f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"
        if "{ib}" in ctx:
            body = "\n    ".join(lines)
            text = ctx.format(ib=f"    -----BEGIN {label}-----\n    {body}\n    -----END {label}-----")
        else:
            text = ctx.format(b=block)
        S("private_key_" + label.lower().replace(" private key", "").replace("private key", "pkcs8").replace(" ", "_"), f, text, body,
          "zh" if "内容" in ctx else None)
    lines = [rs(B64, 64) for _ in range(12)] + [rs(B64, 20) + "=", "=" + rs(B64, 4)]
    body = "\n".join(lines[:-1])
    S("private_key_pgp", f, "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + body + "\n" + lines[-1] + "\n-----END PGP PRIVATE KEY BLOCK-----", body)
    lines = [rs(B64, 64) for _ in range(14)]
    body = "\n".join(lines)
    S("private_key_putty", f, "PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: imported-openssh-key\nPublic-Lines: 6\n"
      + "\n".join(rs(B64, 64) for _ in range(6)) + "\nPrivate-Lines: 14\n" + body + "\nPrivate-MAC: " + rs(HEX, 64), body)
    kb = b64(("-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(pem_body("MIIEowIBAAKCAQEA", 300)) + "\n-----END RSA PRIVATE KEY-----\n").encode())
    S("kubeconfig_client_key", f, f"users:\n- name: admin@prod\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=\n    client-key-data: {kb}", kb)


def dsn():
    f = "dsn"
    pg_hosts = ["db.internal.khdemo.io", "10.0.3.12", "pg-prod.cluster-c9x.eu-west-1.rds.amazonaws.com", "localhost"]
    my_hosts = ["db.internal.khdemo.io", "10.0.3.14", "rm-bp1x2y3z4.mysql.rds.aliyuncs.com", "mysql-0.mysql.default.svc"]
    kv_hosts = ["cache.internal.khdemo.io", "10.0.5.7", "r-bp1a2b3c4d.redis.rds.aliyuncs.com", "localhost"]
    hosts = pg_hosts
    for tpl, lang in [("DATABASE_URL=postgres://app:{p}@{h}:5432/knowhub", None),
                      ("psql \"postgresql://report_ro:{p}@{h}/analytics?sslmode=require\"", None),
                      ("sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at \"{h}\" failed: FATAL: password authentication failed for user \"etl\" [SQL: postgresql+psycopg2://etl:{p}@{h}:5432/warehouse]", None),
                      ("连接串：postgres://admin:{p}@{h}:5432/prod，只读账号在 1Password 里", "zh"),
                      ("  datasource:\n    url: postgresql://svc:{p}@{h}:6432/orders", None)]:
        p = pw(special="!_.~*")
        S("postgres_url", f, tpl.format(p=p, h=pick(hosts)), p, lang)
    for tpl in ["mysql://root:{p}@{h}:3306/shop", "DB_DSN=\"mysql+pymysql://wp:{p}@{h}/wordpress?charset=utf8mb4\"",
                "dsn := \"gouser:{p}@tcp({h}:3306)/inventory?parseTime=true\"", "mysql2://deploy:{p}@{h}/rails_production"]:
        p = pw(special="!_.~*")
        S("mysql_url", f, tpl.format(p=p, h=pick(my_hosts)), p)
    for tpl in ["MONGO_URI=mongodb+srv://appuser:{p}@cluster0.{c}.mongodb.net/prod?retryWrites=true&w=majority",
                "mongosh \"mongodb+srv://{c}.mongodb.net/\" --apiVersion 1 --username admin --password {p}",
                "MongoServerError: bad auth : Authentication failed. uri=mongodb://root:{p}@mongo-0.mongo:27017,mongo-1.mongo:27017/?replicaSet=rs0",
                "spring.data.mongodb.uri=mongodb://reader:{p}@{h}:27017/catalog"]:
        p = pw(special="!_.~*")
        S("mongodb_url", f, tpl.format(p=p, c=rs(LO + DG, 5), h=pick(hosts)), p)
    for tpl in ["REDIS_URL=redis://:{p}@{h}:6379/0", "rediss://default:{p}@redis-12345.c1.us-east-1-2.ec2.cloud.redislabs.com:12345",
                "CELERY_BROKER_URL = 'redis://worker:{p}@{h}:6379/2'", "缓存连不上 redis://:{p}@{h}:6380，密码是对的吗？"]:
        p = pw(special="!_.~*")
        S("redis_url", f, tpl.format(p=p, h=pick(kv_hosts)), p, "zh" if "缓存" in tpl else None)
    for tpl in ["AMQP_URL=amqp://guest_prod:{p}@{h}:5672/%2F", "amqps://b-1234:{p}@b-{c}.mq.eu-west-1.amazonaws.com:5671",
                "pika.exceptions.ProbableAuthenticationError: ConnectionClosedByBroker: (403) 'ACCESS_REFUSED' url=amqp://orders:{p}@{h}/orders"]:
        p = pw(special="!_.~*")
        S("amqp_url", f, tpl.format(p=p, h=pick(kv_hosts), c=uuid4()), p)
    for tpl in ["jdbc:mysql://{h}:3306/erp?user=erp_app&password={p}&useSSL=true",
                "spring.datasource.url=jdbc:postgresql://{h}:5432/billing?user=billing&password={p}",
                "jdbc:sqlserver://{h}:1433;databaseName=HR;user=sa;password={p};encrypt=true"]:
        p = pw(special="!_.~*")
        S("jdbc_password", f, tpl.format(p=p, h=pick(hosts)), p)
    for tpl in ["Server=tcp:khsql.database.windows.net,1433;Initial Catalog=core;User ID=sqladmin;Password={p};Encrypt=True;",
                "\"ConnectionStrings\": {{ \"Default\": \"Data Source=10.1.2.3;Database=Shop;User Id=shop;Pwd={p};\" }}",
                "Host=pg.khdemo.io;Port=5432;Username=npgsql;Password={p};Database=events"]:
        p = pw(special="!_.~*")
        S("adonet_connection_string", f, tpl.format(p=p), p)
    for tpl in ["sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"{u}\" password=\"{p}\";",
                "KAFKA_SASL_PASSWORD={p}"]:
        p = rs(ALNUM + "+/", 64) if "jaas" in tpl else pw()
        S("kafka_sasl_password", f, tpl.format(p=p, u=rs(UP + DG, 16)), p)
    for tpl in ["EMAIL_URL=smtp://noreply%40khdemo.io:{p}@smtp.office365.com:587", "MAIL_DSN=smtps://mailer:{p}@smtp.exmail.qq.com:465"]:
        p = pw(special="!_.~*")
        S("smtp_url", f, tpl.format(p=p), p)
    for tpl in ["lftp ftp://upload:{p}@ftp.khdemo.io/incoming", "sftp://backup:{p}@nas.local:22/volume1/backup"]:
        p = pw(special="!_.~*")
        S("ftp_url", f, tpl.format(p=p), p)
    p = pw(special="!_.~*")
    S("elasticsearch_url", f, f"ELASTICSEARCH_URL=https://elastic:{p}@es.khdemo.io:9200", p)
    p = pw(special="!_.~*")
    S("clickhouse_url", f, f"clickhouse-client --host ch.khdemo.io --user default --password '{p}' --secure", p)
    p = pw(special="!_.~*")
    S("neo4j_url", f, f"NEO4J_AUTH=neo4j/{p}", p)


# ================================================================ secrets: passwords

def passwords():
    f = "password"
    cli = [
        ("mysql_cli", "mysql -h 127.0.0.1 -u root -p{p} -e 'SHOW DATABASES;'", "!_.#%"),
        ("mysql_cli", "mysqldump -uroot --password={p} --single-transaction shop > shop.sql", "!_.#%"),
        ("mysql_cli", "mysqladmin -u admin -p'{p}' status", "!_.#%&*"),
        ("pgpassword_env", "PGPASSWORD={p} psql -h db.khdemo.io -U report -d analytics -c '\\dt'", "!_.#%"),
        ("pgpassword_env", "$env:PGPASSWORD = \"{p}\"; pg_dump -h 10.0.0.8 -U postgres core > core.sql", "!_.#%"),
        ("sshpass", "sshpass -p '{p}' ssh -o StrictHostKeyChecking=no root@192.168.10.21 'systemctl restart nginx'", "!_.#%&*"),
        ("sshpass", "sshpass -p {p} scp dist.tar.gz deploy@10.20.0.5:/srv/app/", "!_.#%"),
        ("sshpass", "ansible all -i hosts -m ping -e \"ansible_ssh_pass={p}\"", "!_.#%"),
        ("curl_user", "curl -u admin:{p} http://127.0.0.1:15672/api/overview", "!_.#%"),
        ("curl_user", "curl --user 'jenkins:{p}' -X POST https://ci.khdemo.io/job/deploy/build", "!_.#%&*"),
        ("curl_user", "curl -s -u \"elastic:{p}\" -k https://localhost:9200/_cat/indices?v", "!_.#%"),
        ("wget_password", "wget --user=mirror --password={p} ftp://ftp.khdemo.io/pub/backup.tgz", "!_.#%"),
        ("wget_password", "wget --http-user=ci --http-password='{p}' https://artifacts.khdemo.io/app.jar", "!_.#%&*"),
        ("ldapsearch", "ldapsearch -x -H ldap://ldap.khdemo.io -D \"cn=admin,dc=khdemo,dc=io\" -w {p} -b \"dc=khdemo,dc=io\"", "!_.#%"),
        ("ldapsearch", "ldapmodify -x -D cn=Manager,dc=corp,dc=local -w '{p}' -f user.ldif", "!_.#%&*"),
        ("smbclient", "smbclient //fileserver/share -U 'CORP\\jwang%{p}' -c 'ls'", "!_.#"),
        ("smbclient", "smbclient -L //10.0.0.30 -U administrator%{p}", "!_.#"),
        ("htpasswd", "htpasswd -b -c /etc/nginx/.htpasswd admin {p}", "!_.#%"),
        ("htpasswd", "htpasswd -bB .htpasswd grafana '{p}'", "!_.#%&*"),
        ("openssl_pass", "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{p}", "!_.#%"),
        ("openssl_pass", "openssl rsa -in server.key.enc -out server.key -passin pass:{p}", "!_.#%"),
        ("openssl_pass", "openssl enc -aes-256-cbc -salt -in db.sql -out db.sql.enc -k {p}", "!_.#%"),
        ("archive_password", "7z a -p{p} -mhe=on backup.7z ./secrets/", "!_.#%"),
        ("archive_password", "zip -r -P {p} logs.zip logs/", "!_.#%"),
        ("archive_password", "unzip -P '{p}' invoices-2026.zip", "!_.#%&*"),
        ("archive_password", "rar a -hp{p} archive.rar docs/", "!_.#%"),
        ("docker_login", "docker login -u khbuild -p {p} registry.khdemo.io", "!_.#%"),
        ("docker_login", "podman login --username ci --password '{p}' quay.io", "!_.#%&*"),
        ("docker_login", "helm registry login harbor.khdemo.cn --username robot$ci --password {p}", "!_.#%"),
        ("keytool", "keytool -importkeystore -srckeystore a.p12 -srcstoretype PKCS12 -destkeystore a.jks -srcstorepass {p} -deststorepass {p}", "!_.#%"),
        ("keytool", "keytool -list -v -keystore release.jks -storepass '{p}' -alias upload", "!_.#%&*"),
        ("keytool", "./gradlew assembleRelease -Pandroid.injected.signing.store.password={p}", "!_.#%"),
        ("redis_cli", "redis-cli -h 10.0.5.7 -p 6379 -a {p} INFO replication", "!_.#%"),
        ("redis_cli", "redis-cli --user default --pass '{p}' --tls -h cache.khdemo.io ping", "!_.#%&*"),
        ("mongo_cli", "mongodump --uri=mongodb://10.0.0.40:27017 -u backup -p '{p}' --authenticationDatabase admin", "!_.#%&*"),
        ("sqlcmd", "sqlcmd -S tcp:sql01,1433 -U sa -P '{p}' -Q \"SELECT @@VERSION\"", "!_.#%&*"),
        ("sqlcmd", "bcp dbo.Orders out orders.csv -S sql01 -U etl -P {p} -c", "!_.#%"),
        ("ipmitool", "ipmitool -I lanplus -H 10.10.0.101 -U ADMIN -P {p} chassis power status", "!_.#%"),
        ("ipmitool", "racadm -r 10.10.0.102 -u root -p {p} getsysinfo", "!_.#%"),
        ("mosquitto", "mosquitto_pub -h mqtt.khdemo.io -u sensor01 -P {p} -t home/temp -m 21.5", "!_.#%"),
        ("rabbitmqctl", "rabbitmqctl add_user orders '{p}' && rabbitmqctl set_user_tags orders monitoring", "!_.#%&*"),
        ("chpasswd", "echo 'deploy:{p}' | sudo chpasswd", "!_.#%"),
        ("chpasswd", "net user svc_backup {p} /add /domain", "!_.#%"),
        ("gpg_passphrase", "gpg --batch --yes --passphrase '{p}' -d secrets.tar.gpg | tar x", "!_.#%&*"),
        ("gpg_passphrase", "restic -r s3:s3.amazonaws.com/kh-backup backup /srv  # RESTIC_PASSWORD={p}", "!_.#%"),
        ("mount_cifs", "sudo mount -t cifs //nas/media /mnt/media -o username=media,password={p},vers=3.0", "!_.#%"),
        ("mount_cifs", "//nas.local/backup  /mnt/backup  cifs  username=bk,password={p},uid=1000  0  0", "!_.#%"),
        ("rsync_password", "RSYNC_PASSWORD={p} rsync -av ./site/ rsync://www@mirror.khdemo.io/site/", "!_.#%"),
        ("git_credential", "https://wli:{p}@git.khdemo.io", "!_.#%"),
        ("xfreerdp", "xfreerdp /v:10.0.8.15 /u:Administrator /p:'{p}' /cert:ignore", "!_.#%&*"),
        ("vnc_password", "x11vnc -display :0 -passwd {p} -forever", "!_.#%"),
        ("hydra_found", "[22][ssh] host: 10.0.2.15   login: pi   password: {p}", "!_.#%"),
        ("psexec", "psexec \\\\srv-app01 -u CORP\\admin -p {p} cmd /c ipconfig", "!_.#%"),
        ("wifi_psk", "nmcli dev wifi connect \"KH-Office\" password \"{p}\"", "!_.#%&*"),
    ]
    for cat, tpl, sp in cli:
        p = pw(special=sp)
        S(cat, f, tpl.format(p=p), p)

    conf = [
        ("env_file", "DB_HOST=10.0.1.5\nDB_USER=app\nDB_PASSWORD={p}\nDB_NAME=core", None),
        ("env_file", "SMTP_PASS={p}", None),
        ("env_file", "ADMIN_PASSWORD=\"{p}\"", None),
        ("yaml_config", "database:\n  host: db\n  username: knowhub\n  password: {p}\n  pool: 10", None),
        ("yaml_config", "smtp:\n  user: alerts@khdemo.io\n  pass: \"{p}\"", None),
        ("yaml_config", "redis:\n  auth: '{p}'\n  db: 3", None),
        ("toml_config", "[database]\nurl = \"postgres://db:5432/app\"\nuser = \"app\"\npassword = \"{p}\"", None),
        ("toml_config", "[smtp]\nlogin = \"mailer\"\npasswd = \"{p}\"", None),
        ("json_config", "{{\"mqtt\": {{\"host\": \"broker\", \"username\": \"edge\", \"password\": \"{p}\"}}}}", None),
        ("json_config", "\"auth\": {{ \"user\": \"svc\", \"pwd\": \"{p}\" }}", None),
        ("docker_compose", "    environment:\n      MYSQL_ROOT_PASSWORD: {p}\n      MYSQL_DATABASE: shop", None),
        ("docker_compose", "  postgres:\n    image: postgres:16\n    environment:\n      - POSTGRES_PASSWORD={p}", None),
        ("docker_compose", "docker run -d --name mssql -e ACCEPT_EULA=Y -e MSSQL_SA_PASSWORD='{p}' mcr.microsoft.com/mssql/server:2022-latest", None),
        ("k8s_secret", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-creds\ntype: Opaque\nstringData:\n  username: app\n  password: {p}", None),
        ("k8s_secret", "kubectl create secret generic redis-auth --from-literal=password='{p}' -n cache", None),
        ("spring_properties", "spring.datasource.username=billing\nspring.datasource.password={p}", None),
        ("spring_properties", "spring.mail.password={p}", None),
        ("php_config", "define( 'DB_PASSWORD', '{p}' );", None),
        ("php_config", "$db['default']['password'] = '{p}';", None),
        ("pgpass", "# ~/.pgpass\ndb.khdemo.io:5432:*:report:{p}", None),
        ("netrc", "machine api.heroku.com\n  login ops@khdemo.io\n  password {p}", None),
        ("ini_config", "[client]\nuser=backup\npassword={p}", None),
        ("ini_config", "[mail]\nsmtp_server = smtp.163.com\nsmtp_password = {p}", None),
        ("xml_config", "<dataSource><username>erp</username><password>{p}</password></dataSource>", None),
        ("xml_config", "<server>\n  <id>nexus-releases</id>\n  <username>deployment</username>\n  <password>{p}</password>\n</server>", None),
        ("hcl_config", "resource \"aws_db_instance\" \"main\" {{\n  username = \"admin\"\n  password = \"{p}\"\n}}", None),
        ("wpa_supplicant", "network={{\n    ssid=\"KH-Lab\"\n    psk=\"{p}\"\n}}", None),
        ("wpa_supplicant", "interface=wlan0\nssid=kh-guest\nwpa_passphrase={p}", None),
        ("python_code", "conn = psycopg2.connect(host=\"db\", user=\"etl\", password=\"{p}\", dbname=\"dw\")", None),
        ("python_code", "ftp.login(user='upload', passwd='{p}')", None),
        ("js_code", "const pool = mysql.createPool({{ host: 'db', user: 'api', password: '{p}', database: 'shop' }});", None),
        ("go_code", "smtp.PlainAuth(\"\", \"bot@khdemo.io\", \"{p}\", \"smtp.gmail.com\")", None),
        ("ansible_vars", "ansible_become_password: {p}", None),
        ("jenkins_log", "+ docker login -u robot -p {p} harbor.khdemo.cn\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.", None),
        ("ci_log", "Run echo \"::add-mask::\" && ./deploy.sh --db-pass={p}\n  shell: /usr/bin/bash -e {{0}}", None),
        ("stack_trace", "java.sql.SQLException: Access denied for user 'app'@'10.0.4.2' (using password: YES)\n\tat com.khdemo.db.Pool.connect(Pool.java:88)\nCaused by: config dump {{user=app, password={p}, url=jdbc:mysql://db/app}}", None),
        ("stack_trace", "Traceback (most recent call last):\n  File \"sync.py\", line 41, in <module>\n    client.login(\"sync\", \"{p}\")\nimaplib.IMAP4.error: b'[AUTHENTICATIONFAILED] Invalid credentials'", None),
    ]
    for cat, tpl, lang in conf:
        p = pw(special="!_.#%@") if R.random() < 0.7 else word_pw()
        S(cat, f, tpl.format(p=p), p, lang)
    p = pw()
    enc = b64(p.encode())
    S("k8s_secret", f, f"apiVersion: v1\nkind: Secret\ndata:\n  DB_PASSWORD: {enc}\n  DB_USER: {b64(b'app')}", enc)
    enc = b64(f"khbot:{pw()}".encode())
    S("docker_config_auth", f, "{\n  \"auths\": {\n    \"registry.khdemo.io\": {\n      \"auth\": \"%s\"\n    }\n  }\n}" % enc, enc)
    enc = b64(f"deploy:{pw()}".encode())
    S("npmrc_auth", f, f"//nexus.khdemo.io/repository/npm/:_auth={enc}\nalways-auth=true", enc)
    enc = b64(pw().encode())
    S("npmrc_auth", f, f"//npm.khdemo.io/:username=ci\n//npm.khdemo.io/:_password={enc}", enc)

    other = [
        ("sql_identified_by", "CREATE USER 'report'@'%' IDENTIFIED BY '{p}';"),
        ("sql_identified_by", "ALTER USER postgres WITH PASSWORD '{p}';"),
        ("sudo_stdin", "echo '{p}' | sudo -S apt-get install -y nginx"),
        ("expect_script", "expect \"password:\"\nsend \"{p}\\r\"\ninteract"),
        ("java_system_property", "java -Dspring.datasource.password={p} -jar app.jar"),
        ("helm_set", "helm upgrade --install pg bitnami/postgresql --set auth.postgresPassword={p}"),
        ("tf_var", "TF_VAR_db_password='{p}' terraform apply -auto-approve"),
        ("vault_write", "vault write auth/userpass/users/bob password={p} policies=dev"),
        ("cmdkey", "cmdkey /add:fs01.corp.local /user:CORP\\svc_copy /pass:{p}"),
        ("url_encoded_password", "postgres://app:{e}@db.internal.khdemo.io:5432/core"),
    ]
    for cat, tpl in other:
        p = pw(special="!_.#%@")
        if "{e}" in tpl:
            p = p.replace("%", "%25").replace("@", "%40").replace("#", "%23").replace("!", "%21")
            S(cat, "dsn", tpl.format(e=p), p)
        else:
            S(cat, f, tpl.format(p=p), p)
    p = "blue harbor quietly " + str(R.randrange(10, 99))
    S("passphrase_with_spaces", f, f"ssh-keygen -t ed25519 -N \"{p}\" -f ~/.ssh/deploy_ed25519", p)
    p = " ".join(pick(["violet", "tundra", "copper", "ladder", "misty", "orchard", "pebble"]) for _ in range(4))
    S("passphrase_with_spaces", f, f"The keystore passphrase is \"{p}\" (four words, lower case).", p)
    p = pw()
    S("password_prose", f, f"兄弟，prod 的 DB password 是 {p}，别 share 出去哈", p, "zh")
    p = word_pw()
    S("password_prose", f, f"刚才 debug 的时候把 admin 的 pwd 改成 {p} 了，明天 rollback", p, "zh")

    prose = [
        ("The staging admin password is {p}, please change it after the demo.", None),
        ("FYI: I reset the VPN password for bob to {p} until he's back.", None),
        ("Login for the router UI: admin / {p}", None),
        ("Tried password '{p}' for the sa account and it worked on the second server too.", None),
        ("数据库密码是 {p}，用户名 root", "zh"),
        ("服务器 root 密码：{p}（别外传）", "zh"),
        ("测试环境账号 test01，密码 {p}，登录后台 http://10.0.0.12:8080", "zh"),
        ("邮箱授权码是 {p}，不是登录密码", "zh"),
        ("我把 Jenkins 的 password 改成了 {p}，记得更新 credentials", "zh"),
        ("redis 的 requirepass 设成 {p} 了", "zh"),
        ("WiFi 密碼：{p}", "zh-Hant"),
        ("La contraseña del servidor de pruebas es {p} y el usuario es admin.", "es"),
        ("Usuario: soporte, contraseña: {p}", "es"),
        ("Das Passwort für den Build-Server lautet {p}.", "de"),
        ("Kennwort für die NAS-Freigabe: {p}", "de"),
        ("Le mot de passe de la base de prod est {p}, ne le partage pas.", "fr"),
        ("Identifiant : admin / mot de passe : {p}", "fr"),
        ("検証環境のパスワードは {p} です。", "ja"),
        ("管理画面 ID: admin パスワード: {p}", "ja"),
        ("관리자 비밀번호는 {p} 입니다.", "ko"),
        ("A senha do banco é {p}, troque depois do deploy.", "pt"),
        ("La password dell'utente root è {p}.", "it"),
        ("Пароль от сервера: {p}", "ru"),
        ("Het wachtwoord voor de testomgeving is {p}.", "nl"),
        ("Hasło do panelu: {p}", "pl"),
    ]
    for tpl, lang in prose:
        p = pw(special="!_.#%@") if R.random() < 0.6 else word_pw()
        S("password_prose", f, tpl.format(p=p), p, lang)


# ================================================================ secrets: personal data

def contact():
    f = "contact"
    first = ["wei.zhang", "lmoreau", "j.garcia", "anna.schmidt", "kenji.tanaka", "p.rossi", "olga.k", "mike.obrien",
             "sofia.jansen", "li.na", "chen_hao", "d.nowak", "hyejin.park", "tom.baker88", "liu.yang"]
    doms = ["gmail.com", "qq.com", "163.com", "outlook.com", "khdemo.io", "yahoo.co.jp", "web.de", "orange.fr",
            "proton.me", "foxmail.com", "naver.com", "hotmail.es"]
    em = lambda: f"{pick(first)}{pick(['', str(R.randrange(1, 99))])}@{pick(doms)}"
    for tpl, lang in [("git config user.email \"{e}\"", None),
                      ("Author: Wei Zhang <{e}>\nDate:   Thu Nov 26 18:02:11 2026 +0800", None),
                      ("客户邮箱 {e}，已经发了重置链接", "zh"),
                      ("[2026-11-27 08:15:02] INFO  signup ok user={e} plan=pro", None),
                      ("Please cc {e} on the incident report.", None),
                      ("{{\"id\": 4411, \"name\": \"Anna Schmidt\", \"email\": \"{e}\", \"country\": \"DE\"}}", None),
                      ("From: \"Kenji Tanaka\" <{e}>\nSubject: Re: invoice", None),
                      ("mailto:{e}?subject=Refund", None),
                      ("Schreib mir bitte an {e}, falls der Build wieder bricht.", "de"),
                      ("連絡先：{e}", "ja"),
                      ("ERROR 1062 (23000): Duplicate entry '{e}' for key 'users.email_unique'", None),
                      ("uid,email,created\n88213,{e},2026-10-02", None)]:
        e = em()
        S("email", f, tpl.format(e=e), e, lang)

    for tpl, fmt, lang in [("联系人：王先生，手机 {m}", "plain", "zh"),
                           ("客户电话 +86 {m}，下午三点后方便接听", "spaced", "zh"),
                           ("收货人: 李娜 {m} 上海市浦东新区", "dash", "zh"),
                           ("sms.send(phone=\"+86{m}\", template=\"SMS_2741\")", "plain", None),
                           ("验证码发到了 {m}，但用户说没收到", "plain", "zh"),
                           ("Contact in Shenzhen: +86-{m}", "dash", None),
                           ("我的微信就是手机号 {m}", "spaced", "zh"),
                           ("\"mobile\": \"{m}\"", "plain", None)]:
        m = cn_mobile()
        v = {"plain": m, "spaced": f"{m[:3]} {m[3:7]} {m[7:]}", "dash": f"{m[:3]}-{m[3:7]}-{m[7:]}"}[fmt]
        S("phone_cn", f, tpl.format(m=v), v, lang)
    for tpl in ["Call me at ({a}) {b}-{c} if the deploy fails.", "phone: +1 {a}-{b}-{c}", "Twilio sent to +1{a}{b}{c}: delivered",
                "Customer: Mike O'Brien, {a}.{b}.{c}, 22 Elm St"]:
        a, b, c = us_phone()
        if "(" in tpl:
            v = f"({a}) {b}-{c}"
        elif "+1 " in tpl:
            v = f"+1 {a}-{b}-{c}"
        elif "+1{" in tpl:
            v = f"+1{a}{b}{c}"
        else:
            v = f"{a}.{b}.{c}"
        S("phone_us", f, tpl.replace("({a}) {b}-{c}", "{v}").replace("+1 {a}-{b}-{c}", "{v}").replace("+1{a}{b}{c}", "{v}").replace("{a}.{b}.{c}", "{v}").format(v=v), v)
    eu = [("Ruf mich an: +49 151 {x} {y}", lambda: (rs(DG, 4), rs(DG, 4)), "de"),
          ("Tel. 030 {x} {y}", lambda: (rs(DG, 4), rs(DG, 4)), "de"),
          ("Mon numéro : 06 {x} {y}", lambda: (group(rs(DG, 4), [2, 2]), group(rs(DG, 4), [2, 2])), "fr"),
          ("phone: +33 6 {x} {y}", lambda: (group(rs(DG, 4), [2, 2]), group(rs(DG, 4), [2, 2])), None),
          ("Mobile +44 7700 {x}{y}", lambda: (rs(DG, 3), rs(DG, 3)), None),
          ("Llámame al +34 6{x} {y}", lambda: (rs(DG, 2) + " " + rs(DG, 3), rs(DG, 3)), "es"),
          ("Cellulare: +39 3{x} {y}", lambda: (rs(DG, 2) + " " + rs(DG, 3), rs(DG, 4)), "it"),
          ("Bel me op 06-{x}{y}", lambda: (rs(DG, 4), rs(DG, 4)), "nl")]
    for tpl, gen, lang in eu:
        x, y = gen()
        text = tpl.format(x=x, y=y)
        start = next(i for i, ch in enumerate(text) if ch == "+" or ch.isdigit())
        S("phone_eu", f, text, text[start:].rstrip("."), lang)
    for text, v, lang in [("寄到 {a}，张伟收", "上海市徐汇区漕溪北路 " + str(R.randrange(10, 600)) + " 弄 " + str(R.randrange(1, 30)) + " 号 " + str(R.randrange(101, 2200)) + " 室", "zh"),
                          ("Ship to: {a}", f"{R.randrange(100, 9999)} Linden Ave Apt {R.randrange(1, 40)}, Portland, OR 97{rs(DG, 3)}", None),
                          ("Lieferadresse: {a}", f"Kastanienallee {R.randrange(1, 120)}, 10435 Berlin", "de")]:
        S("postal_address", f, text.format(a=v), v, lang)


def national_ids():
    f = "national_id"
    for tpl, lang in [("身份证号：{v}", "zh"), ("乘车人 张伟 身份证 {v} 已核验", "zh"),
                      ("{{\"name\": \"李娜\", \"id_card\": \"{v}\", \"phone\": null}}", None),
                      ("实名认证失败 idcard={v} reason=name_mismatch", None),
                      ("客户的身份证号码是{v}，请核对", "zh"), ("INSERT INTO users(name, idno) VALUES ('刘洋', '{v}');", None),
                      ("报销单附件里有身份证 {v}，要打码", "zh"), ("ID: {v}", None)]:
        v = cn_id()
        S("cn_resident_id", f, tpl.format(v=v), v, lang)
    for tpl in ["SSN: {v}", "applicant ssn={v} dob=1988-03-14", "Her social security number is {v}.",
                "W-2 shows employee SSN {v}", "{{\"ssn\": \"{v}\", \"state\": \"TX\"}}"]:
        v = us_ssn()
        if "W-2" in tpl:
            v = v.replace("-", " ")
        S("us_ssn", f, tpl.format(v=v), v)
    for tpl, gen, lang in [("DNI: {v}", es_dni, "es"), ("Mi DNI es {v}, por si lo necesitas para la factura.", es_dni, "es"),
                           ("nif={v}", es_dni, None), ("NIE {v} (residente)", es_nie, "es"), ("Número de NIE: {v}", es_nie, "es")]:
        v = gen()
        S("es_dni_nie", f, tpl.format(v=v), v, lang)
    for tpl, lang in [("N° de sécurité sociale : {v}", "fr"), ("NIR {v}", None), ("numéro de sécu {v} à mettre dans le formulaire", "fr")]:
        body, key = fr_nir()
        v = f"{body[0]} {body[1:3]} {body[3:5]} {body[5:7]} {body[7:10]} {body[10:13]} {key}" if "sécurité" in tpl else body + key
        S("fr_nir", f, tpl.format(v=v), v, lang)
    for tpl, lang in [("BSN: {v}", None), ("Mijn burgerservicenummer is {v}.", "nl"), ("bsn={v}&naam=Jansen", None)]:
        v = nl_bsn()
        S("nl_bsn", f, tpl.format(v=v), v, lang)
    for tpl, lang in [("Codice fiscale: {v}", "it"), ("CF {v} — intestatario del contratto", "it"), ("tax_code: \"{v}\"", None)]:
        v = it_cf()
        S("it_codice_fiscale", f, tpl.format(v=v), v, lang)
    for tpl, lang in [("Steuer-ID: {v}", "de"), ("Meine steuerliche Identifikationsnummer lautet {v}.", "de"), ("IdNr {v}", "de")]:
        v = de_steuer_id()
        if "Steuer-ID" in tpl:
            v = f"{v[:2]} {v[2:5]} {v[5:8]} {v[8:]}"
        S("de_steuer_id", f, tpl.format(v=v), v, lang)
    for tpl, lang in [("PESEL: {v}", "pl"), ("pesel={v}", None)]:
        v = pesel()
        S("pl_pesel", f, tpl.format(v=v), v, lang)
    v = se_personnummer()
    S("se_personnummer", f, f"Personnummer: {v}", v)
    for tpl in ["National Insurance number: {v}", "NINO {v}"]:
        v = uk_nino()
        if "National" in tpl:
            v = f"{v[:2]} {v[2:4]} {v[4:6]} {v[6:8]} {v[8]}"
        S("uk_nino", f, tpl.format(v=v), v)
    for tpl, v, lang in [("护照号 {v}，有效期到 2031 年", "E" + rs(DG, 8), "zh"),
                         ("Passport No.: {v}", rs(DG, 9), None),
                         ("Reisepass-Nr. {v}", rs("CFGHJKLMNPRTVWXYZ", 1) + rs("CFGHJKLMNPRTVWXYZ0123456789", 8), "de"),
                         ("passport_number=\"{v}\" nationality=GBR", rs(DG, 9), None),
                         ("旅券番号：{v}", "T" + rs(UP, 1) + rs(DG, 7), "ja")]:
        S("passport_number", f, tpl.format(v=v), v, lang)
    for country, sur, given, nat, lang, ctx in [("CHN", "ZHANG", "WEI", "CHN", "zh", "护照 OCR 结果：\n{l1}\n{l2}"),
                                               ("USA", "OBRIEN", "MICHAEL JAMES", "USA", None, "MRZ:\n{l1}\n{l2}"),
                                               ("D<<", "SCHMIDT", "ANNA", "D<<", None, "{l1}\n{l2}"),
                                               ("FRA", "MOREAU", "LUCIE", "FRA", None, "ocr_text = \"{l1}\\n{l2}\"")]:
        num = (pick(["E", "G", "C", "1", "5"]) + rs(DG, 8)) if country != "D<<" else rs("CFGHJKLMNPRTVWXYZ", 1) + rs("CFGHJKLMNPRTVWXYZ0123456789", 8)
        dob = f"{R.randrange(60, 99):02d}{R.randrange(1, 13):02d}{R.randrange(1, 29):02d}"
        exp = f"{R.randrange(27, 35):02d}{R.randrange(1, 13):02d}{R.randrange(1, 29):02d}"
        l1, l2 = mrz_td3(country, sur, given, num, nat, dob, pick("MF"), exp)
        S("passport_mrz", f, ctx.format(l1=l1, l2=l2), l2, lang)


def financial():
    f = "financial"
    cards = [("visa", "4", 16), ("mastercard", "5" + pick("12345"), 16), ("mastercard", "22" + str(R.randrange(21, 99)), 16),
             ("amex", pick(["34", "37"]), 15), ("unionpay", "62" + rs(DG, 2), 16), ("unionpay", "6228", 19),
             ("jcb", "35" + str(R.randrange(28, 90)), 16), ("discover", "6011", 16), ("visa", "4", 16), ("mastercard", "53", 16)]
    tpls = [("card={c} exp=09/29 cvv={cvv}", "plain", None), ("Card number: {c}", "space", None),
            ("信用卡号 {c}，有效期 08/28", "space", "zh"), ("{{\"pan\": \"{c}\", \"holder\": \"J GARCIA\"}}", "plain", None),
            ("Payment failed for card {c} (insufficient funds)", "dash", None), ("银行卡号：{c} 开户行：招商银行", "plain", "zh"),
            ("Mi tarjeta es {c}", "space", "es"), ("charge.create card: {c} amount: 49.00", "plain", None),
            ("Kartennummer {c}, gültig bis 11/27", "space", "de"), ("Numéro de carte : {c}", "space", "fr")]
    for (brand, prefix, n), (tpl, fmt, lang) in zip(cards, tpls):
        c = card(prefix, n)
        if fmt == "space":
            c = group(c, [4, 6, 5] if n == 15 else ([4, 4, 4, 4, 3] if n == 19 else [4, 4, 4, 4]))
        elif fmt == "dash":
            c = group(c, [4, 6, 5] if n == 15 else [4, 4, 4, 4], "-")
        S("credit_card", f, tpl.format(c=c, cvv=rs(DG, 3)), c, lang)
    ib_tpls = [("DE", "IBAN: {i}", "space", None), ("FR", "Merci de virer sur {i} avant vendredi.", "space", "fr"),
               ("GB", "payee iban={i}", "plain", None), ("ES", "Cuenta: {i}", "space", "es"),
               ("NL", "Rekeningnummer {i} t.n.v. S. Jansen", "space", "nl"), ("IT", "IBAN {i} intestato a Paolo Rossi", "plain", "it"),
               ("CH", "{{\"iban\": \"{i}\", \"bic\": \"UBSWCHZH80A\"}}", "plain", None), ("BE", "Bankrekening: {i}", "space", "nl"),
               ("PL", "Numer konta: {i}", "space", "pl"), ("AT", "Bitte überweisen an {i}", "plain", "de")]
    for country, tpl, fmt, lang in ib_tpls:
        i = make_iban(country)
        assert iban_ok(i)
        if fmt == "space":
            i = " ".join(i[k:k + 4] for k in range(0, len(i), 4))
        S("iban", f, tpl.format(i=i), i, lang)
    acct = rs(DG, 10)
    S("us_bank_account", f, f"ACH details: routing 0210000{rs(DG, 2)}, account {acct}", acct)
    acct = rs(DG, 8)
    S("uk_bank_account", f, f"Sort code 20-{rs(DG, 2)}-{rs(DG, 2)}, account number {acct}", acct)


# ================================================================ benign look-alikes

def benign():
    sha = lambda: rs(HEX, 40)
    for tpl in ["commit {h}\nAuthor: ci-bot <noreply@github.com>\n\n    chore: bump deps", "git cherry-pick {h}",
                "Fixed in {s} (\"redact: handle CRLF\")", "HEAD is now at {s} Merge pull request #412 from khdemo/fix-ci",
                "git log --oneline\n{s} add retry\n{s2} initial import", "已回滚到 {h}，线上恢复", "git diff {s}..{s2} -- src/",
                "Checking out {h} (refs/remotes/origin/main)", "go: downloading github.com/khdemo/core v0.0.0-20261120093045-{s12}",
                "rev = \"{h}\"", "Bisecting: 12 revisions left to test after this (roughly 4 steps)\n[{h}] tune pool size",
                "\"commit\": {{\"sha\": \"{h}\", \"url\": \"https://api.github.com/repos/khdemo/api/commits/{h}\"}}"]:
        h = sha()
        B("git_commit_sha", tpl.format(h=h, s=h[:7], s2=sha()[:7], s12=h[:12]), "zh" if "回滚" in tpl else None)
    for tpl in ["image: ghcr.io/khdemo/api@sha256:{h}", "sha256sum knowhub-linux-amd64.tar.gz\n{h}  knowhub-linux-amd64.tar.gz",
                "Digest: sha256:{h}\nStatus: Downloaded newer image for postgres:16", "\"checksum\": \"sha256-{h}\"",
                "SHA256 ({f}) = {h}", "校验和 sha256: {h}，和官网一致", "checksum = \"{h}\"  # Cargo.lock",
                "sha256 \"{h}\"  # Homebrew formula", "layer {h}: already exists", "x-amz-content-sha256: {h}"]:
        h = rs(HEX, 64)
        B("sha256_digest", tpl.format(h=h, f=pick(["rustup-init", "node-v22.11.0.tar.xz", "model.onnx"])), "zh" if "校验" in tpl else None)
    for tpl in ["md5: {h}  dataset.csv", "ETag: \"{h}\"", "Content-MD5 mismatch: expected {h}", "gravatar: https://www.gravatar.com/avatar/{h}?s=80",
                "cache key: build-{h}"]:
        B("md5_hash", tpl.format(h=rs(HEX, 32)))
    for tpl in ["request_id={u} status=500 path=/v1/search", "x-request-id: {u}", "Trace ID {u} — see Jaeger",
                "\"subscriptionId\": \"{u}\"", "kubectl get pod -o jsonpath='{{.metadata.uid}}'\n{u}", "任务 ID：{u} 已完成",
                "AZURE_TENANT_ID={u}", "correlationId: {u}", "Created volume pvc-{u}", "uuid = \"{u}\"",
                "idempotency-key: {u}", "job {u} finished in 4.2s", "DEBUG session={u} cache=miss"]:
        B("uuid", tpl.format(u=uuid4()), "zh" if "任务" in tpl else None)
    for text in ["data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
                 f"echo {b64(b'hello from the knowhub agent')} | base64 -d",
                 "binaryData:\n  logo.svg: " + b64(b'<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="7"/></svg>'),
                 f"\"payload\": \"{b64(json.dumps({'event': 'build.finished', 'duration_ms': 48211, 'ok': True}).encode())}\"",
                 f"font-src data:font/woff2;base64,{b64(b'wOF2' + bytes(range(48)))}",
                 f"Content-Transfer-Encoding: base64\n\n{b64('Ihre Bestellung wurde versandt. Vielen Dank!'.encode())}",
                 f"protobuf bytes field: {b64(bytes(range(1, 40)))}",
                 f"X-Cursor: {b64(json.dumps({'offset': 200, 'limit': 50}).encode())}",
                 f"source map: //# sourceMappingURL=data:application/json;base64,{b64(json.dumps({'version': 3, 'sources': ['index.ts'], 'mappings': 'AAAA'}).encode())}"]:
        B("base64_data", text)
    for text, lang in [("export OPENAI_API_KEY=<YOUR_API_KEY>", None), ("Set `STRIPE_SECRET_KEY=sk_live_...` in your environment.", None),
                       ("password: ${DB_PASSWORD}", None), ("token: {{ secrets.GITHUB_TOKEN }}", None),
                       ("DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME", None), ("api_key = os.environ[\"ANTHROPIC_API_KEY\"]", None),
                       ("curl -H \"Authorization: Bearer $TOKEN\" https://api.khdemo.io/v1/me", None),
                       ("AWS_SECRET_ACCESS_KEY=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", None),
                       ("把 .env.example 里的 API_KEY=your-key-here 换成你自己的", "zh"), ("mysql -u root -p", None),
                       ("docker login -u $DOCKER_USER --password-stdin < ~/.docker_token", None),
                       ("password = \"<redacted>\"", None), ("SECRET_KEY=[REDACTED]", None), ("slack_webhook: https://hooks.slack.com/services/XXX/YYY/ZZZ", None),
                       ("client_secret: \"${{ env.CLIENT_SECRET }}\"", None), ("Passwort: ******** (aus dem Tresor holen)", "de"),
                       ("PGPASSWORD=$(cat /run/secrets/pg_password) psql -h db -U app", None), ("--token=$(vault kv get -field=token secret/ci)", None)]:
        B("placeholder", text, lang)
    for text in ["AWS docs example: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                 "Use the Stripe test card 4242 4242 4242 4242 with any future expiry.",
                 "Contact: user@example.com (placeholder address from RFC 2606)",
                 "git config --global user.email \"you@example.com\"",
                 "In the tutorial the JWT is eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
                 "Example from RFC 7617: Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
                 "Documentation uses 192.0.2.10 and 2001:db8::1 as example addresses.",
                 "The docs call the phone number +1 555-0100 (fictional range).",
                 "For testing use the Stripe card 5555 5555 5555 4444.",
                 "RFC 4648 test vector: base64(\"foobar\") = Zm9vYmFy"]:
        B("doc_example", text)
    for text, lang in [("The appliance ships with the default password `changeme`; the setup wizard forces you to change it.", None),
                       ("Default credentials are admin/admin — the README tells you to rotate them on first login.", None),
                       ("如果密码忘了，默认密码是 123456 —— 文档里写的，首次登录会强制修改", "zh"),
                       ("Grafana's default login is admin / admin, you are asked for a new password after.", None),
                       ("password: changeme  # placeholder, overridden by Helm values in prod", None),
                       ("Le mot de passe par défaut est « password », à changer immédiatement.", "fr")]:
        B("default_password_doc", text, lang)
    for text in ["knowhub 0.14.2 (rustc 1.83.0, 2026-11-20)", "Successfully installed torch-2.5.1+cu124 numpy-2.1.3",
                 "version: 3.12.0-rc.2+build.20261127.8f3a2c1", "\"typescript\": \"^5.6.3\"", "Linux 6.8.0-49-generic #49-Ubuntu SMP x86_64",
                 "openssl version: OpenSSL 3.0.13 30 Jan 2024", "版本号 v2.31.0-beta.4，构建号 20261127.1532", "Chrome/131.0.6778.86 Safari/537.36",
                 "FROM python:3.12.7-slim-bookworm", "kernel 5.15.0-1071-azure"]:
        B("version_string", text, "zh" if "版本" in text else None)
    isbns = []
    for _ in range(5):
        body = "978" + rs(DG, 9)
        c = (10 - sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(body)) % 10) % 10
        isbns.append(body + str(c))
    for tpl, i in zip(["ISBN {v}", "Buch: „Rust für Profis“, ISBN {v}", "参考书 ISBN：{v}", "isbn13={v}", "Designing Data-Intensive Applications (ISBN {v})"], isbns):
        v = f"{i[:3]}-{i[3]}-{i[4:8]}-{i[8:12]}-{i[12]}" if "Designing" in tpl or tpl == "ISBN {v}" else i
        B("isbn", tpl.format(v=v), "de" if "Buch" in tpl else ("zh" if "参考" in tpl else None))
    for text, lang in [(f"订单号 {R.randrange(2026112700000000, 2026112799999999)} 已发货", "zh"),
                       (f"Amazon order #{rs(DG, 3)}-{rs(DG, 7)}-{rs(DG, 7)} shipped", None),
                       (f"Invoice INV-2026-{rs(DG, 6)} paid", None), (f"Bestellnummer {rs(DG, 10)}", "de"),
                       (f"工单 #{rs(DG, 8)} 已关闭", "zh"), (f"Ticket JIRA KH-{R.randrange(100, 9999)} moved to Done", None),
                       (f"快递单号 SF{rs(DG, 13)}，顺丰", "zh"), (f"UPS tracking 1Z{rs(UP + DG, 16)}", None),
                       (f"Stripe customer cus_{rs(ALNUM, 14)} upgraded", None), (f"PaymentIntent pi_{rs(ALNUM, 24)} succeeded", None),
                       (f"Charge ch_{rs(ALNUM, 24)} refunded", None), (f"Shopify order #{R.randrange(1000, 99999)} fulfilled", None),
                       (f"GitHub Actions run {rs(DG, 11)} failed on job build (attempt 2)", None),
                       (f"PR #{R.randrange(100, 5000)} merged by khbot", None)]:
        B("order_or_object_id", text, lang)
    for text in ["ssh deploy@10.0.3.17 'df -h'", "Listening on 0.0.0.0:8080", "nameserver 8.8.8.8\nnameserver 1.1.1.1",
                 "allowed_ips = [\"172.16.0.0/12\", \"192.168.0.0/16\"]", "Connection refused (127.0.0.1:5432)",
                 "inet6 fe80::1c2a:4bff:fe9e:2f11/64 scope link", f"client {R.randrange(1, 223)}.{R.randrange(256)}.{R.randrange(256)}.{R.randrange(1, 255)} - - [27/Nov/2026:09:12:01 +0000] \"GET / HTTP/1.1\" 200",
                 "ping 114.114.114.114 -c 3", "server 10.20.30.40:9000 max_fails=3;", "服务器 IP 是 47.96.12.8，端口 22", "VIP 10.0.0.100 floats between lb1 and lb2",
                 "2606:4700:4700::1111 answered in 12ms"]:
        B("ip_address", text, "zh" if "服务器" in text else None)
    for text in [f"ether {':'.join(rs(HEX, 2) for _ in range(6))} txqueuelen 1000", f"MAC {'-'.join(rs(HEXU, 2) for _ in range(6))} bound to eth0",
                 f"BSSID {':'.join(rs(HEX, 2) for _ in range(6))} signal -61dBm"]:
        B("mac_address", text)
    for text in ["ts=1764235921 level=info msg=\"compacted\"", "2026-11-27T09:32:11.482913Z INFO ready", "epoch_ms: 1764235921482",
                 "Date: Fri, 27 Nov 2026 09:32:11 GMT"]:
        B("timestamp", text)
    for text, lang in [(f"Test fixture id {bad_luhn('4', 16)} (not a card)", None), (f"tracking={bad_luhn('5', 16)}", None),
                       (f"流水号 {bad_luhn('62', 19)}", "zh"), (f"serial number {bad_luhn('3', 15)}", None),
                       (f"trace_id={cn_id(valid=False)}", None), (f"批次号 {cn_id(valid=False)}", "zh"),
                       (f"row 0{rs(DG, 10)} skipped", None), (f"barcode 4006381333931", None)]:
        B("number_failing_check", text, lang)
    for country in ["DE", "FR", "GB"]:
        i = make_iban(country)
        bad = i[:2] + f"{(int(i[2:4]) + 1) % 100:02d}" + i[4:]
        assert not iban_ok(bad)
        B("number_failing_check", f"test vector (invalid IBAN): {bad}")
    for text in [f"sha512-{b64(rbytes(64))}", f"\"integrity\": \"sha512-{b64(rbytes(64))}\"", f"integrity=\"sha384-{b64(rbytes(48))}\" crossorigin=\"anonymous\"",
                 f"resolved \"https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#{rs(HEX, 40)}\""]:
        B("package_integrity", text)
    for text in [f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(B64, 43)} ci@build-01",
                 f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{rs(B64, 300)}= jli@laptop",
                 f"authorized_keys:\n  - ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB{rs(B64, 120)}= deploy",
                 f"age recipient: age1{rs('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}",
                 f"[Peer]\nPublicKey = {b64(rbytes(32))}\nEndpoint = vpn.khdemo.io:51820"]:
        B("public_key", text)
    for lines in range(3):
        body = "\n".join(pem_body("MIID" + rs(B64, 4) + "CCAl+gAwIBAgI", 800))
        label = pick(["CERTIFICATE", "PUBLIC KEY", "CERTIFICATE REQUEST"])
        B("certificate_or_public_pem", f"-----BEGIN {label}-----\n{body}\n-----END {label}-----")
    for text in [f"STRIPE_PUBLISHABLE_KEY=pk_live_{rs(ALNUM, 99)}", f"<script>Stripe('pk_live_{rs(ALNUM, 24)}')</script>",
                 f"data-sitekey=\"6L{rs(ALNUM + '-_', 38)}\"", f"NEXT_PUBLIC_POSTHOG_KEY=phc_{rs(ALNUM, 43)}",
                 f"algolia search-only key (public): {rs(HEX, 32)}"]:
        B("publishable_key", text)
    for text, lang in [("OPENAI_API_KEY=sk-...4fQz (masked)", None), (f"token: ghp_************************************", None),
                       (f"Card ending in 4417: **** **** **** 4417", None), ("password: ******", None),
                       ("AccessKey LTAI5t************ 已禁用", "zh"), (f"sk_live_{'•' * 20}Xy9Q", None),
                       ("SSN: ***-**-6789", None), ("手机号 138****5521 的用户已注销", "zh")]:
        B("masked_value", text, lang)
    for text in ["max_tokens=4096, temperature=0.2", "TOKEN_TTL_SECONDS=3600", "password_min_length: 12", "tokens used: 18211 prompt / 942 completion",
                 "PASSWORD_HASHERS = ['django.contrib.auth.hashers.Argon2PasswordHasher']", "secret_scanning: enabled", "--api-key-file /etc/kh/api_key",
                 "401 Unauthorized: invalid api key", "The `password` column is bcrypt-hashed.", "auth_method = scram-sha-256",
                 "forgot_password_url: https://khdemo.io/reset", "tokenizer: cl100k_base"]:
        B("keyword_without_secret", text)
    for text in [f"$2b$12${rs(ALNUM + './', 53)}", f"$argon2id$v=19$m=65536,t=3,p=4${rs(B64, 22)}${rs(B64, 43)}",
                 f"pbkdf2_sha256$600000${rs(ALNUM, 22)}${b64(rbytes(32))}"]:
        B("password_hash", f"users.password_hash = '{text}'")
    for text in [f"arn:aws:iam::{rs(DG, 12)}:role/kh-deployer", f"instance i-0{rs(HEX, 16)} is running",
                 f"sg-0{rs(HEX, 16)} allows 443", f"ami-0{rs(HEX, 16)} (ubuntu 24.04)", f"vpc-{rs(HEX, 17)}",
                 f"projects/kh-prod-{rs(DG, 6)}/locations/us-central1/functions/ingest", f"Slack channel C0{rs(UP + DG, 9)} user U0{rs(UP + DG, 9)}",
                 f"YouTube video https://youtu.be/{rs(B64URL, 11)}", f"Twilio message SM{rs(HEX, 32)} delivered", f"Docker container {rs(HEX, 12)} exited (0)"]:
        B("cloud_resource_id", text)
    for text in ["git@github.com:khdemo/knowhub.git", "npm i @types/node@22.9.0 @khdemo/cli@1.4.2", "docker pull nginx@sha256:" + rs(HEX, 64),
                 "pip install requests==2.32.3", "Signed-off-by: dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>",
                 "@channel deploy at 14:00"]:
        B("at_sign_not_email", text)
    for text in [f"tx hash 0x{rs(HEX, 64)} confirmed in block 21{rs(DG, 6)}", f"contract deployed at 0x{rs(HEX, 40)}",
                 f"BTC address bc1q{rs('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 38)} (public donation address)"]:
        B("blockchain_public", text)
    for text in [f"color: #{rs(HEX, 6)}; background: #{rs(HEX, 6)}", f"Build number 2026.11.{R.randrange(1, 999)}",
                 f"电话会议号 {rs(DG, 3)} {rs(DG, 3)} {rs(DG, 3)}", f"Zoom meeting ID {rs(DG, 3)} {rs(DG, 4)} {rs(DG, 4)}",
                 f"HTTP/1.1 429 Too Many Requests, retry-after 30", "latitude 31.2304, longitude 121.4737", f"port range 30000-32767"]:
        B("number_like_phone", text, "zh" if "会议" in text else None)
    for text in [f"nonce={rs(HEX, 32)} (single-use, already consumed)", f"CSRF state param state={rs(ALNUM, 24)} mismatch",
                 f"cache-busting query ?v={rs(HEX, 8)}", f"webpack chunk main.{rs(HEX, 20)}.js", f"ETag: W/\"{rs(HEX, 16)}\"",
                 f"salt column: {rs(HEX, 16)} (public, stored next to hash)", f"Hashed pii id: sha1={rs(HEX, 40)}"]:
        B("random_nonsecret", text)
    for text, lang in [("Our office line is on the website; ask reception.", None), ("The API key was rotated yesterday and the old one revoked.", None),
                       ("密码已经改过了，新的在 1Password 里，不要发在群里", "zh"), ("Das Passwort steht im Tresor, nicht im Chat.", "de"),
                       ("Set a strong password with at least 16 characters.", None)]:
        B("prose_about_secret", text, lang)


def main():
    cloud()
    tokens()
    http()
    pem()
    dsn()
    passwords()
    contact()
    national_ids()
    financial()
    benign()
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "blind3.jsonl")
    with open(out, "w", encoding="utf-8") as fh:
        for c in CASES:
            fh.write(json.dumps(c, ensure_ascii=False) + "\n")
    sec = [c for c in CASES if c["kind"] == "secret"]
    print(f"{len(sec)} secrets, {len(CASES) - len(sec)} benign -> {out}")


if __name__ == "__main__":
    main()
