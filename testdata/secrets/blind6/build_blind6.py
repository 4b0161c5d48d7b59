#!/usr/bin/env python3
"""Writes blind6.jsonl: a sixth held-out set of provider keys, phone numbers, bank data,
passwords, split secrets and benign look-alikes.

Written blind to the redaction rules, their tests, the other case sets and every measured result.
Every value is synthetic, drawn from a seeded generator in the shape that each provider or
authority uses (prefix, length, alphabet), as far as the author knew it from memory. Numbers that
carry a check digit (card numbers: Luhn; IBANs: ISO 7064 mod 97; Brazilian CPF: two mod-11
digits; US ABA routing numbers: 3-7-1 weights; the French RIB key, Spanish DC, Dutch elfproef,
Belgian mod 97, Italian CIN and Portuguese NIB inside IBANs; Mexican CLABE; the Russian account
key; ISBN-10/13 and EAN-13 in the look-alikes) are computed valid, and the ones listed in CHECKS
are re-checked by an independent validator before the file is written. Deterministic (seeded RNG, no clock, standard
library only):
    python3 testdata/secrets/blind6/build_blind6.py
"""
import base64
import json
import os
import random
import string

R = random.Random(0xB1D6_0619)
UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
ALNUM = UP + LO + DG
LETTERS = UP + LO
LOWNUM = LO + DG
UPNUM = UP + DG
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

FAMILIES = {"provider_key", "phone", "bank", "password", "split"}
LANGS = {"zh", "zh-Hant", "ja", "ko", "de", "fr", "es", "pt", "ru", "it", "vi", "th", "tr", "id",
         "pl", "nl", "sv", "hi", "ar"}

CASES = []
COUNTERS = {}
CHECKS = []  # (case id, algorithm, value)


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def pick(seq):
    return R.choice(seq)


def digits(n, first=None):
    """n random digits; the first one drawn from `first` when given."""
    if first is None:
        return rs(DG, n)
    return R.choice(first) + rs(DG, n - 1)


def F(template, **kw):
    """Fills @@name@@ markers; used where the text holds braces (JSON, code)."""
    out = template
    for k, v in kw.items():
        out = out.replace("@@" + k + "@@", v)
    assert "@@" not in out, out
    return out


def add(kind, category, family, text, secret=None, lang=None, check=None, min_len=None):
    n = COUNTERS.get((kind, category), 0) + 1
    COUNTERS[(kind, category)] = n
    cid = f"{'s' if kind == 'secret' else 'b'}-{category}-{n:02d}"
    case = {"id": cid, "kind": kind, "category": category, "family": family, "text": text}
    if kind == "secret":
        assert secret and secret in text, (cid, secret, text)
        if min_len:
            assert len(secret) >= min_len, (cid, secret)
        case["secret"] = secret
    if lang and lang != "en":
        case["lang"] = lang
    if check:
        CHECKS.append((cid,) + check)
    CASES.append(case)
    return case


def P(category, text, secret, lang=None):
    return add("secret", category, "provider_key", text, secret, lang)


def B(category, text, lang=None, check=None):
    return add("benign", category, "benign", text, None, lang, check)


# ---------------------------------------------------------------- value generators

def uuid4():
    h = rs(HEX, 32)
    h = h[:12] + "4" + h[13:16] + pick("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def b64url_nopad(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def jwt(payload):
    head = b64url_nopad(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64url_nopad(json.dumps(payload, separators=(",", ":")).encode())
    return f"{head}.{body}.{rs(B64URL, 43)}"


# Luhn (ISO/IEC 7812-1): from the right, double every second digit, subtract 9 above 9;
# the sum of all digits must be a multiple of 10.
def luhn_check_digit(body):
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:  # these get doubled once the check digit is appended
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def card(prefix, length):
    body = prefix + rs(DG, length - len(prefix) - 1)
    return body + luhn_check_digit(body)


def grp(s, sizes, sep=" "):
    out, i = [], 0
    for n in sizes:
        out.append(s[i:i + n])
        i += n
    assert i == len(s), (s, sizes)
    return sep.join(out)


# IBAN (ISO 13616 / ISO 7064 MOD 97-10): move country + check to the end, letters -> 10..35,
# the number mod 97 must be 1.  Check digits = 98 - (BBAN + country + "00") mod 97.
def _iban_num(s):
    return int("".join(str(int(c, 36)) for c in s))


def iban(cc, bban):
    check = 98 - _iban_num(bban + cc + "00") % 97
    return f"{cc}{check:02d}{bban}"


def iban_spaced(s):
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


# Brazilian CPF: nine digits, then two check digits, each 11 - (weighted sum mod 11), 10/11 -> 0;
# weights 10..2 for the first, 11..2 for the second.
def cpf():
    while True:
        base = rs(DG, 9)
        if len(set(base)) > 1:
            break
    ds = [int(c) for c in base]
    for w0 in (10, 11):
        s = sum(d * w for d, w in zip(ds, range(w0, 1, -1)))
        r = 11 - s % 11
        ds.append(0 if r >= 10 else r)
    s = "".join(map(str, ds))
    return f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}"


# Belgian BBAN: 10 digits + 2 check digits = first 10 mod 97 (00 -> 97).
def be_bban():
    base = rs(DG, 10)
    c = int(base) % 97 or 97
    return f"{base}{c:02d}"


# ---------------------------------------------------------------- independent validators

def v_luhn(number):
    ds = [int(c) for c in number if c.isdigit()]
    total = 0
    for i, d in enumerate(reversed(ds)):
        if i % 2 == 1:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return total % 10 == 0


def v_iban(s):
    s = s.replace(" ", "").upper()
    r = s[4:] + s[:4]
    n = 0
    for ch in r:
        n = (n * (100 if ch.isalpha() else 10) + (ord(ch) - 55 if ch.isalpha() else int(ch))) % 97
    return n == 1


def v_cpf(s):
    ds = [int(c) for c in s if c.isdigit()]
    if len(ds) != 11:
        return False
    for k in (9, 10):
        tot = sum(ds[i] * (k + 1 - i) for i in range(k))
        r = (tot * 10) % 11 % 10
        if r != ds[k]:
            return False
    return True


def v_aba(s):
    d = [int(c) for c in s]
    return len(d) == 9 and (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7])
                            + (d[2] + d[5] + d[8])) % 10 == 0


def v_be(s):
    b = s.replace(" ", "")[4:]
    return (int(b[:10]) % 97 or 97) == int(b[10:])


def v_it_cin(s):
    b = s.replace(" ", "")[4:]
    cin, rest = b[0], b[1:]
    odd = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                   [1, 0, 5, 7, 9, 13, 15, 17, 19, 21] + [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11,
                                                           3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]))
    even = {c: (int(c) if c.isdigit() else ord(c) - 65) for c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
    total = 0
    for pos in range(1, len(rest) + 1):
        c = rest[pos - 1]
        total += odd[c] if pos % 2 == 1 else even[c]
    return len(rest) == 22 and chr(ord("A") + total % 26) == cin


def v_pt_nib(s):
    b = s.replace(" ", "")[4:]
    return len(b) == 21 and int(b) % 97 == 1


def v_clabe(s):
    d = [int(c) for c in s]
    w = [3, 7, 1] * 6
    return len(d) == 18 and (sum((d[i] * w[i]) % 10 for i in range(17)) + d[17]) % 10 == 0


def v_ru_account(pair):
    bik, acc = pair.split("/")
    d = [int(c) for c in bik[-3:] + acc]
    return len(acc) == 20 and sum(x * (7, 1, 3)[i % 3] for i, x in enumerate(d)) % 10 == 0


def v_isbn13(s):
    d = [int(c) for c in s if c.isdigit()]
    return len(d) == 13 and sum(x * (3 if i % 2 else 1) for i, x in enumerate(d)) % 10 == 0


def v_isbn10(s):
    t = s.replace("-", "").replace(" ", "")
    d = [10 if c in "Xx" else int(c) for c in t]
    return len(d) == 10 and sum(x * (10 - i) for i, x in enumerate(d)) % 11 == 0


VALIDATORS = {"luhn": v_luhn, "iban": v_iban, "cpf": v_cpf, "aba": v_aba, "be_bban": v_be,
              "it_cin": v_it_cin, "pt_nib": v_pt_nib, "clabe": v_clabe, "ru_account": v_ru_account,
              "isbn13": v_isbn13, "ean13": v_isbn13, "isbn10": v_isbn10}


# ================================================================ 1. provider keys

def provider_keys():
    # Mistral: 32 alphanumerics, no prefix.
    k = rs(ALNUM, 32)
    P("mistral", F("""\
# la Plateforme, workspace "docs-bot" (rotated 2024-05-02)
MISTRAL_API_KEY=@@k@@
MISTRAL_MODEL=mistral-large-latest
MISTRAL_TIMEOUT_S=30
""", k=k), k)
    k = rs(ALNUM, 32)
    P("mistral", f"Salut Inès, j'ai régénéré la clé Mistral pour le POC du chatbot RH, la voici : {k} "
      "— elle n'expire pas, pense à la mettre dans Vault et à supprimer ce message.", k, "fr")

    # Snyk: the API token is a UUID.
    k = uuid4()
    P("snyk", F("""\
[Pipeline] sh
+ export SNYK_TOKEN=@@k@@
+ snyk auth @@k@@
Your account has been authenticated. Snyk is now ready to be used.
+ snyk test --severity-threshold=high --json-file-output=snyk.json
Testing /var/lib/jenkins/workspace/payments-api...
""", k=k), k)

    # Algolia: admin API key = 32 hex, application id = 10 upper alnum.
    app, k = rs(UPNUM, 10), rs(HEX, 32)
    P("algolia", F("""\
// scripts/reindex.js: server side only, uses the ADMIN key (addObjects, setSettings)
const algoliasearch = require('algoliasearch');
const client = algoliasearch('@@app@@', '@@k@@');
const index = client.initIndex('products_prod');
await index.replaceAllObjects(records, { safe: true });
""", app=app, k=k), k)
    app, k = rs(UPNUM, 10), rs(HEX, 32)
    P("algolia", F("""\
# docsearch crawler, copied from the old Netlify build
algolia:
  app_id: @@app@@
  admin_api_key: @@k@@
  index_name: docs_v3
start_urls:
  - https://docs.example-widgets.io/
""", app=app, k=k), k)

    # Zoom: OAuth client secret 32 alnum; legacy JWT app API secret 36 alnum.
    k = rs(ALNUM, 32)
    P("zoom", F("""\
ZOOM_ACCOUNT_ID=@@acc@@
ZOOM_CLIENT_ID=@@cid@@
ZOOM_CLIENT_SECRET=@@k@@
ZOOM_WEBHOOK_PATH=/hooks/zoom
""", acc=rs(B64URL, 22), cid=rs(ALNUM, 22), k=k), k)
    key, k = rs(ALNUM, 22), rs(ALNUM, 36)
    P("zoom", f"佐藤さん、録画ダウンロード用の Zoom JWT アプリ（6月で廃止予定）の情報です。\n"
      f"API Key: {key}\nAPI Secret: {k}\n社外には出さないでください。", k, "ja")

    # Asana personal access token: 1/<user gid>:<32 hex>, newer 2/<user gid>/<app gid>:<32 hex>.
    k = f"1/120{digits(13)}:{rs(HEX, 32)}"
    P("asana", f"$ curl -s https://app.asana.com/api/1.0/users/me \\\n"
      f"    -H \"Authorization: Bearer {k}\" | jq .data.email\n\"r.okafor@northwind-labs.com\"", k)
    k = f"2/120{digits(13)}/120{digits(13)}:{rs(HEX, 32)}"
    P("asana", F("""\
import asana

configuration = asana.Configuration()
configuration.access_token = '@@k@@'  # Ravi's PAT, replace with service account
api_client = asana.ApiClient(configuration)
tasks = asana.TasksApi(api_client)
""", k=k), k)

    # LaunchDarkly: server SDK key sdk-<uuid>, API access token api-<uuid>.
    k = "sdk-" + uuid4()
    P("launchdarkly", F("""\
feature_flags:
  provider: launchdarkly
  launchdarkly:
    sdk_key: @@k@@
    stream: true
    events_flush_interval: 5s
""", k=k), k)
    k = "api-" + uuid4()
    P("launchdarkly", F("""\
provider "launchdarkly" {
  access_token = "@@k@@"
}

resource "launchdarkly_feature_flag" "checkout_v2" {
  project_key = "web"
  key         = "checkout-v2"
  name        = "Checkout v2"
  variation_type = "boolean"
}
""", k=k), k)

    # Braintree (PayPal): access_token$production$<16>$<32 hex>.
    k = f"access_token$production${rs(LOWNUM, 16)}${rs(HEX, 32)}"
    P("braintree", F("""\
$ heroku config -a shop-api-prod
=== shop-api-prod Config Vars
BRAINTREE_ACCESS_TOKEN: @@k@@
NODE_ENV:               production
WEB_CONCURRENCY:        3
""", k=k), k)

    # WeChat Pay: APIv3 key and APIv2 mch key, both 32 characters.
    k = rs(ALNUM, 32)
    P("wechat_pay", F("""\
# 微信支付商户配置（生产环境，勿提交）
wechat:
  pay:
    app-id: wx@@appid@@
    mch-id: 16@@mch@@
    api-v3-key: @@k@@
    merchant-serial-number: @@serial@@
    private-key-path: /etc/wxpay/apiclient_key.pem
""", appid=rs(HEX, 16), mch=digits(8), serial=rs(HEXU, 40), k=k), k, "zh")
    k = rs(ALNUM, 32)
    P("wechat_pay", f"刚在商户平台把 API 密钥（v2 那个 mch key）重置了，新的是 {k}，"
      "签名还是 MD5 那套，老的回调验签今晚之前都要换掉。", k, "zh")

    # Tencent Cloud: SecretId AKID + 32, SecretKey 32.
    sid, k = "AKID" + rs(ALNUM, 32), rs(ALNUM, 32)
    P("tencent_cloud", F("""\
from tencentcloud.common import credential
from tencentcloud.cvm.v20170312 import cvm_client, models

cred = credential.Credential("@@sid@@", "@@k@@")
client = cvm_client.CvmClient(cred, "ap-guangzhou")
print(client.DescribeInstances(models.DescribeInstancesRequest()).to_json_string())
""", sid=sid, k=k), k)
    sid, k = "AKID" + rs(ALNUM, 32), rs(ALNUM, 32)
    P("tencent_cloud", F("""\
$ tccli configure
secretId: @@sid@@
secretKey: @@k@@
region: ap-shanghai
output[json]:
# 配置完成，凭证写入 ~/.tccli/default.credential
""", sid=sid, k=k), k, "zh")

    # Huawei Cloud OBS: AK 20 upper alnum, SK 40 alnum.
    ak, k = rs(UPNUM, 20), rs(ALNUM, 40)
    P("huawei_cloud", F("""\
; ~/.obsutilconfig  (generated by: obsutil config -i=... -k=... -e=...)
[Credentials]
ak=@@ak@@
sk=@@k@@
token=
endpoint=obs.cn-north-4.myhuaweicloud.com
""", ak=ak, k=k), k)

    # Alibaba Cloud: AccessKey ID LTAI5t + 18, secret 30.
    ak, k = "LTAI5t" + rs(ALNUM, 18), rs(ALNUM, 30)
    P("alibaba_cloud", f"$ aliyun configure set --profile prod --mode AK --region cn-hangzhou \\\n"
      f"    --access-key-id {ak} --access-key-secret {k}\nConfigure Done!!!", k)
    ak, k = "LTAI5t" + rs(ALNUM, 18), rs(ALNUM, 30)
    P("alibaba_cloud", F("""\
# application-prod.yml  —— 阿里云 OSS（上传头像用）
aliyun:
  oss:
    endpoint: oss-cn-hangzhou.aliyuncs.com
    bucket: avatar-prod
    access-key-id: @@ak@@
    access-key-secret: @@k@@   # TODO 迁到 KMS
""", ak=ak, k=k), k, "zh")

    # Baidu AI Cloud: API Key 24, Secret Key 32.
    k = rs(ALNUM, 32)
    P("baidu_ai", F("""\
# 百度智能云 通用文字识别（高精度版）
APP_ID = '28@@appid@@'
API_KEY = '@@ak@@'
SECRET_KEY = '@@k@@'

token_url = "https://aip.baidubce.com/oauth/2.0/token"
""", appid=digits(6), ak=rs(ALNUM, 24), k=k), k, "zh")

    # Volcengine: AK "AKLT..." and SK = base64(base64(32 hex)).
    ak = "AKLT" + b64url_nopad(rs(HEX, 32).encode())[:43]
    k = base64.b64encode(base64.b64encode(rs(HEX, 32).encode())).decode()
    P("volcengine", f"# 火山引擎 veImageX 上传\nexport VOLC_ACCESSKEY={ak}\nexport VOLC_SECRETKEY={k}\n"
      "python upload.py --service-id abcd1234 --dir ./dist", k, "zh")

    # Cloudflare: API token 40 [A-Za-z0-9_-]; global API key 37 hex.
    k = rs(B64URL, 40)
    P("cloudflare", f"curl -s \"https://api.cloudflare.com/client/v4/user/tokens/verify\" \\\n"
      f"     -H \"Authorization: Bearer {k}\"\n"
      '{"result":{"id":"' + rs(HEX, 32) + '","status":"active"},"success":true,"errors":[],'
      '"messages":[{"code":10000,"message":"This API Token is valid and active"}]}', k)
    k = rs(HEX, 37)
    P("cloudflare", F("""\
# terraform.tfvars (legacy global key, see INFRA-882)
cloudflare_email   = "infra@brightharbor.co"
cloudflare_api_key = "@@k@@"
zone_id            = "@@z@@"
""", k=k, z=rs(HEX, 32)), k)

    # DigitalOcean personal access token.
    k = "dop_v1_" + rs(HEX, 64)
    P("digitalocean", f"$ doctl auth init --context staging --access-token {k}\n"
      "Validating token... OK\n$ doctl kubernetes cluster kubeconfig save stg-fra1", k)

    # Linear.
    k = "lin_api_" + rs(ALNUM, 40)
    P("linear", f"I set `LINEAR_API_KEY` to `{k}` in the workflow env and the sync job still "
      "gets `401 Authentication required`. Is the key scoped per workspace?", k)

    # Notion: internal integration secret_ (old) and ntn_ (new).
    k = "secret_" + rs(ALNUM, 43)
    P("notion", F("""\
from notion_client import Client

notion = Client(auth="@@k@@")
db = notion.databases.query(database_id="@@db@@")
""", k=k, db=rs(HEX, 32)), k)
    k = "ntn_" + digits(12) + rs(ALNUM, 34)
    P("notion", F("""\
{
  "mcpServers": {
    "notionApi": {
      "command": "npx",
      "args": ["-y", "@notionhq/notion-mcp-server"],
      "env": {
        "OPENAPI_MCP_HEADERS": "{\\"Authorization\\": \\"Bearer @@k@@\\", \\"Notion-Version\\": \\"2022-06-28\\"}"
      }
    }
  }
}""", k=k), k)

    # Airtable personal access token.
    k = "pat" + rs(ALNUM, 14) + "." + rs(HEX, 64)
    P("airtable", f"curl \"https://api.airtable.com/v0/app{rs(ALNUM, 14)}/Inventory?maxRecords=3\" \\\n"
      f"  -H \"Authorization: Bearer {k}\"", k)

    # Postmark server token (UUID).
    k = uuid4()
    P("postmark", F("""\
# config/environments/production.rb
config.action_mailer.delivery_method = :postmark
config.action_mailer.postmark_settings = { api_token: "@@k@@" }
""", k=k), k)

    # Mailgun private API key: 32 hex - 8 hex - 8 hex.
    k = f"{rs(HEX, 32)}-{rs(HEX, 8)}-{rs(HEX, 8)}"
    P("mailgun", F("""\
  mailer:
    image: registry.gitlab.com/fjordline/mailer:1.8.2
    environment:
      MAILGUN_DOMAIN: mg.fjordline-tours.no
      MAILGUN_API_KEY: @@k@@
      MAILGUN_REGION: eu
""", k=k), k)

    # SendGrid: SG.<22>.<43>.
    k = f"SG.{rs(B64URL, 22)}.{rs(B64URL, 43)}"
    P("sendgrid", F("""\
<?php
require 'vendor/autoload.php';
$email = new \\SendGrid\\Mail\\Mail();
$email->setFrom("noreply@casa-verde.com.br", "Casa Verde");
$sendgrid = new \\SendGrid('@@k@@');
$response = $sendgrid->send($email);
""", k=k), k)

    # Twilio: Account SID AC + 32 hex (identifier), auth token 32 hex.
    sid, k = "AC" + rs(HEX, 32), rs(HEX, 32)
    P("twilio", f"const client = require('twilio')('{sid}', '{k}');\n"
      "client.messages.create({ to: process.argv[2], from: '+15017122661', body: 'Your code is ' + code });", k)

    # Datadog: API key 32 hex, application key 40 hex.
    k = rs(HEX, 32)
    P("datadog", F("""\
## /etc/datadog-agent/datadog.yaml
api_key: @@k@@
site: datadoghq.eu
logs_enabled: true
apm_config:
  enabled: true
""", k=k), k)
    api, k = rs(HEX, 32), rs(HEX, 40)
    P("datadog", f"curl -X GET \"https://api.datadoghq.com/api/v1/monitor\" \\\n"
      f"  -H \"DD-API-KEY: {api}\" \\\n  -H \"DD-APPLICATION-KEY: {k}\"", k)

    # New Relic user API key.
    k = "NRAK-" + rs(UPNUM, 27)
    P("new_relic", f"$ export NEW_RELIC_ACCOUNT_ID={digits(7, '1234')}\n$ export NEW_RELIC_API_KEY={k}\n"
      "$ terraform plan -target=module.alerts", k)

    # Sentry: DSN public key (32 hex) and org auth token sntrys_<base64 json>_<43>.
    k = rs(HEX, 32)
    P("sentry", F("""\
import sentry_sdk

sentry_sdk.init(
    dsn="https://@@k@@@o@@org@@.ingest.us.sentry.io/@@proj@@",
    traces_sample_rate=0.2,
    environment="production",
)
""", k=k, org=digits(6, "4"), proj=digits(16, "4")), k)
    claims = {"iat": 1712345678.912345, "url": "https://sentry.io", "region_url": "https://us.sentry.io",
              "org": "kestrel-robotics"}
    k = "sntrys_" + base64.b64encode(json.dumps(claims, separators=(",", ":")).encode()).decode().rstrip("=") \
        + "_" + rs(ALNUM, 43)
    P("sentry", f"# ~/.sentryclirc\n[defaults]\norg = kestrel-robotics\nproject = firmware-uploader\n\n"
      f"[auth]\ntoken = {k}", k)

    # Vercel token: 24 alnum.
    k = rs(ALNUM, 24)
    P("vercel", F("""\
      - name: Deploy
        run: npx vercel deploy --prod --yes --token @@k@@
        env:
          VERCEL_ORG_ID: team_@@org@@
          VERCEL_PROJECT_ID: prj_@@prj@@
""", k=k, org=rs(ALNUM, 24), prj=rs(ALNUM, 28)), k)

    # Netlify personal access token: nfp_ + 36.
    k = "nfp_" + rs(ALNUM, 36)
    P("netlify", f"8:42:17 PM: $ netlify deploy --dir=public --prod --auth {k} --site {uuid4()}\n"
      "8:42:19 PM: Deploy path: /opt/build/repo/public\n8:42:25 PM: Deploy is live!", k)

    # Supabase service role key: HS256 JWT with role service_role.
    ref = rs(LO, 20)
    anon = jwt({"iss": "supabase", "ref": ref, "role": "anon", "iat": 1718000000, "exp": 2033576000})
    k = jwt({"iss": "supabase", "ref": ref, "role": "service_role", "iat": 1718000000, "exp": 2033576000})
    P("supabase", f"# .env.local\nNEXT_PUBLIC_SUPABASE_URL=https://{ref}.supabase.co\n"
      f"NEXT_PUBLIC_SUPABASE_ANON_KEY={anon}\nSUPABASE_SERVICE_ROLE_KEY={k}\n", k)

    # Pinecone: pcsk_<5>_<63>.
    k = f"pcsk_{rs(ALNUM, 5)}_{rs(ALNUM, 63)}"
    P("pinecone", f">>> from pinecone import Pinecone\n>>> pc = Pinecone(api_key=\"{k}\")\n"
      ">>> pc.list_indexes().names()\n['support-articles', 'support-articles-staging']", k)

    # Cohere: 40 alnum.
    k = rs(ALNUM, 40)
    P("cohere", f"Ticket #{digits(5)}: rerank calls fail with 429 since this morning. Our key: {k} "
      "(trial or production? we upgraded last week). Thanks, Dana", k)

    # Hugging Face user access token: hf_ + 34 letters.
    k = "hf_" + rs(LETTERS, 34)
    P("huggingface", f"$ huggingface-cli login --token {k} --add-to-git-credential\n"
      "Token is valid (permission: write).\nYour token has been saved in your configured git credential helpers (store).\n"
      "Token has been saved to /home/ml/.cache/huggingface/token\nLogin successful", k)

    # Replicate: r8_ + 37.
    k = "r8_" + rs(ALNUM, 37)
    P("replicate", k + "\n\n^ replicate token for the image-gen demo, paste it into the Space secrets", k)

    # Groq: gsk_ + 52.
    k = "gsk_" + rs(ALNUM, 52)
    P("groq", f"Hier der Groq-Key fürs Hackathon-Team: {k} – bitte nicht ins Repo committen, "
      "ich widerrufe ihn am Sonntag.", k, "de")

    # Anthropic: sk-ant-api03-<93>AA.
    k = "sk-ant-api03-" + rs(B64URL, 93) + "AA"
    P("anthropic", F("""\
In [3]: import anthropic
   ...: client = anthropic.Anthropic(api_key="@@k@@")
   ...: msg = client.messages.create(model="claude-3-5-sonnet-latest", max_tokens=256,
   ...:     messages=[{"role": "user", "content": "Resume ce ticket"}])
""", k=k), k)

    # Shopify: admin access token shpat_ and app shared secret shpss_, 32 hex each.
    k = "shpat_" + rs(HEX, 32)
    P("shopify", f"SHOPIFY_STORE_DOMAIN=lumen-candles.myshopify.com\nSHOPIFY_ADMIN_ACCESS_TOKEN={k}\n"
      "SHOPIFY_API_VERSION=2024-04", k)
    k = "shpss_" + rs(HEX, 32)
    P("shopify", F("""\
{
  "shopify": {
    "apiKey": "@@cid@@",
    "apiSecretKey": "@@k@@",
    "scopes": "read_products,write_orders",
    "hostName": "app.lumen-candles.com"
  }
}""", cid=rs(HEX, 32), k=k), k)

    # Square: access token EAAA + 60, application secret sq0csp- + 43.
    k = "EAAA" + rs(B64URL, 60)
    P("square", F("""\
square:
  environment: production
  location_id: L@@loc@@
  access_token: @@k@@
""", loc=rs(UPNUM, 12), k=k), k)
    k = "sq0csp-" + rs(B64URL, 43)
    P("square", f"Hola equipo, el secreto de la aplicación OAuth de Square es {k} y el ID es "
      f"sq0idp-{rs(B64URL, 22)}. Lo cambio el viernes.", k, "es")

    # Atlassian API token: ATATT3xFfGF0 + 171 + "=" + 8 upper hex.
    k = "ATATT3xFfGF0" + rs(B64URL, 171) + "=" + rs(HEXU, 8)
    P("atlassian", f"curl -s -u jira-bot@tidewater.io:{k} \\\n"
      "  -H 'Accept: application/json' https://tidewater.atlassian.net/rest/api/3/myself", k)

    # Figma personal access token.
    k = "figd_" + rs(B64URL, 40)
    P("figma", f"GET /v1/files/{rs(ALNUM, 22)}?depth=1 HTTP/1.1\nHost: api.figma.com\n"
      f"X-Figma-Token: {k}\nUser-Agent: design-tokens-sync/0.4.1\nAccept: */*", k)

    # Okta API token: 00 + 40.
    k = "00" + rs(B64URL, 40)
    P("okta", F("""\
provider "okta" {
  org_name  = "hollowpine"
  base_url  = "okta.com"
  api_token = "@@k@@"
}
""", k=k), k)

    # HashiCorp Vault service token.
    k = "hvs." + rs(ALNUM, 24)
    P("vault", f"$ vault login -method=userpass username=mkowalski\nPassword (will be hidden):\n"
      "Success! You are now authenticated. The token information displayed below\n"
      "is already stored in the token helper.\n\nKey                    Value\n---                    -----\n"
      f"token                  {k}\ntoken_accessor         {rs(ALNUM, 24)}\ntoken_duration         768h\n"
      "token_policies         [\"default\" \"kv-read\"]", k)

    # Terraform Cloud: <14>.atlasv1.<67>.
    k = rs(ALNUM, 14) + ".atlasv1." + rs(ALNUM, 67)
    P("terraform_cloud", F("""\
{
  "credentials": {
    "app.terraform.io": {
      "token": "@@k@@"
    }
  }
}""", k=k), k)

    # npm automation token.
    k = "npm_" + rs(ALNUM, 36)
    P("npm", f"; ~/.npmrc on the release runner\n//registry.npmjs.org/:_authToken={k}\n"
      "@tidewater:registry=https://registry.npmjs.org/\nalways-auth=true", k)

    # PyPI API token (macaroon).
    k = "pypi-AgEIcHlwaS5vcmcCJD" + rs(B64URL, 155)
    P("pypi", f"[distutils]\nindex-servers =\n    pypi\n\n[pypi]\n  username = __token__\n  password = {k}", k)

    # RubyGems API key.
    k = "rubygems_" + rs(HEX, 48)
    P("rubygems", f"$ cat ~/.gem/credentials\n---\n:rubygems_api_key: {k}", k)

    # Discord bot token: base64(snowflake).<6>.<38>.
    snow = "1" + digits(18)
    k = base64.b64encode(snow.encode()).decode().rstrip("=") + "." + rs(B64URL, 6) + "." + rs(B64URL, 38)
    P("discord", F("""\
import discord
intents = discord.Intents.default()
intents.message_content = True
bot = discord.Client(intents=intents)
# ...
bot.run('@@k@@')
""", k=k), k)

    # Dropbox short-lived access token.
    k = "sl.B" + rs(B64URL, 135)
    P("dropbox", f"DropboxのアクセストークンをSlackに貼っておきます（4時間で切れます）\n{k}", k, "ja")

    # Heroku API key (new HRKU- format).
    k = "HRKU-AA" + rs(B64URL, 56)
    P("heroku", F("""\
deploy_review_app:
  stage: deploy
  variables:
    HEROKU_APP: "brightharbor-review-$CI_MERGE_REQUEST_IID"
    HEROKU_API_KEY: "@@k@@"
  script:
    - git push https://heroku:$HEROKU_API_KEY@git.heroku.com/$HEROKU_APP.git HEAD:main
""", k=k), k)

    # Doppler service token.
    k = "dp.st.prd." + rs(ALNUM, 40)
    P("doppler", f"docker run --rm -e DOPPLER_TOKEN=\"{k}\" ghcr.io/brightharbor/worker:2.3.0 "
      "doppler run -- node dist/worker.js", k)

    # GitLab personal access token.
    k = "glpat-" + rs(B64URL, 20)
    P("gitlab", f"fatal: Authentication failed for 'https://gitlab.com/kestrel/firmware.git/'\n"
      f"# tried again with the token in the remote:\n$ git remote set-url origin https://oauth2:{k}@gitlab.com/kestrel/firmware.git", k)

    # Slack bot token.
    k = f"xoxb-{digits(12, '123456789')}-{digits(13, '123456789')}-{rs(ALNUM, 24)}"
    P("slack", F("""\
from slack_sdk import WebClient
client = WebClient(token="@@k@@")
client.chat_postMessage(channel="#deploys", text=f"Deployed {sha} to prod")
""", k=k), k)

    # Stripe restricted key.
    k = "rk_live_51" + rs(ALNUM, 97)
    P("stripe", f"Clave restringida de Stripe (solo lectura de cargos) para el panel de contabilidad:\n{k}", k, "es")

    # Google AI / Gemini key.
    k = "AIza" + rs(B64URL, 35)
    P("google_api", f"GEMINI_API_KEY = \"{k}\"\nmodel = genai.GenerativeModel(\"gemini-1.5-flash\")", k)

    # Grafana service account token.
    k = f"glsa_{rs(ALNUM, 32)}_{rs(HEX, 8)}"
    P("grafana", f"# grafana-backup-tool settings (nightly dashboard export)\ngeneral:\n  backup_dir: /var/backups/grafana\n"
      f"grafana:\n  url: https://grafana.ops.tidewater.io\n  token: {k}\n  search_api_limit: 5000", k)

    # Databricks personal access token.
    k = "dapi" + rs(HEX, 32)
    P("databricks", f"[DEFAULT]\nhost  = https://adb-{digits(16, '1234567')}.{digits(2, '1')}.azuredatabricks.net\n"
      f"token = {k}", k)

    # Telegram bot token.
    k = f"{digits(10, '67')}:AA{rs(B64URL, 33)}"
    P("telegram", f"Готово! Бот создан. Токен для доступа к HTTP API:\n{k}\n"
      "Храните токен в секрете, с ним любой может управлять ботом.", k, "ru")

    # Postman API key.
    k = f"PMAK-{rs(HEX, 24)}-{rs(HEX, 34)}"
    P("postman", f"newman run collection.json --env-var \"baseUrl=https://staging.api.tidewater.io\" "
      f"--postman-api-key {k} -r cli,junit", k)

    # Docker Hub personal access token.
    k = "dckr_pat_" + rs(B64URL, 27)
    P("docker_hub", f"$ echo {k} | docker login -u tidewaterci --password-stdin\n"
      "WARNING! Your password will be stored unencrypted in /home/runner/.docker/config.json.\nLogin Succeeded", k)

    # age secret key.
    k = "AGE-SECRET-KEY-1" + rs(BECH32.upper(), 58)
    P("age", f"# created: 2024-03-02T10:11:12+01:00\n# public key: age1{rs(BECH32, 58)}\n{k}", k)

    # OpenAI project key.
    k = "sk-proj-" + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74)
    P("openai", f"OPENAI_API_KEY={k}", k)

    # GitHub fine-grained token.
    k = f"github_pat_11{rs(UPNUM, 20)}_{rs(ALNUM, 59)}"
    P("github", f"깃허브 토큰 새로 발급했어요. 권한은 contents:read 만 줬습니다.\n토큰: {k}\n만료일: 2024-09-30", k, "ko")

    # Contentful management token.
    k = "CFPAT-" + rs(B64URL, 43)
    P("contentful", f"contentful space export --space-id {rs(LOWNUM, 12)} --management-token {k} --export-dir ./backup", k)

    # Azure Storage account key (88 base64 chars ending ==).
    k = rs(B64, 86) + "=="
    P("azure_storage", f"DefaultEndpointsProtocol=https;AccountName=stkestrelprod;AccountKey={k};"
      "EndpointSuffix=core.windows.net", k)

    # Mapbox secret token.
    k = "sk.eyJ1Ijoia2VzdHJlbC1tYXBzIiwiYSI6Im" + rs(ALNUM, 19) + "." + rs(B64URL, 22)
    P("mapbox", f"Pour le script d'upload des tuiles, utilise le jeton secret (scope uploads:write) : {k}", k, "fr")

    # Fly.io deploy token.
    k = "FlyV1 fm2_" + rs(B64, 180) + "=="
    P("flyio", f"$ fly tokens create deploy -x 720h\n{k}\n$ gh secret set FLY_API_TOKEN", k)

    # PlanetScale service token.
    k = "pscale_tkn_" + rs(B64URL, 43)
    P("planetscale", f"PLANETSCALE_SERVICE_TOKEN_ID={rs(LOWNUM, 12)}\nPLANETSCALE_SERVICE_TOKEN={k}", k)

    # Buildkite agent token in Portuguese chat.
    k = rs(HEX, 50)
    P("buildkite", f"Pessoal, o token do agente Buildkite da fila `arm64` é {k} — está no "
      "1Password também, mas o pipeline novo precisa dele já.", k, "pt")

    # CircleCI personal token.
    k = "CCIPAT_" + rs(ALNUM, 22) + "_" + rs(HEX, 40)
    P("circleci", f"key: {k}", k)


# ================================================================ 2. phone numbers

def PH(cc, text, secret, lang=None):
    return add("secret", "phone_" + cc, "phone", text, secret, lang)


def phones():
    # Hong Kong: 8 digits, mobiles start 5, 6 or 9.
    n = f"9{digits(3)} {digits(4)}"
    PH("hk", f"Hi, Kelvin here from the flat viewing on Saturday. My mobile is {n}, text me if the "
       "landlord agrees to the earlier move-in date.", n)
    n = f"+852 6{digits(3)} {digits(4)}"
    PH("hk", f"聯絡人：陳小姐\n手提：{n}（請於辦公時間致電）\n送貨時間：星期六上午", n, "zh-Hant")
    n = f"+8525{digits(7)}"
    PH("hk", F("""{"customer_id": 88123, "name": "Lam Wing Sze", "phone": "@@n@@", "tier": "gold"}""", n=n), n)

    # India: 10 digits starting 6-9.
    n = f"+91 9{digits(4)} {digits(5)}"
    PH("in", f"Your Swiggy delivery partner Ramesh ({n}) is on the way. Share OTP only at the door.", n)
    n = digits(10, "6789")
    PH("in", f"मेरा नंबर {n} है, शाम छह बजे के बाद कॉल करें।", n, "hi")
    n = f"+91-{digits(10, '789')}"
    PH("in", f"name,email,phone,city\nPriya Raman,priya.raman@gmail.com,{n},Chennai", n)

    # Brazil: (DD) 9XXXX-XXXX.
    n = f"(11) 9{digits(4)}-{digits(4)}"
    PH("br", f"Oi! Vi o anúncio da bicicleta. Ainda está disponível? Me chama no zap: {n}", n, "pt")
    n = f"+55 21 9{digits(4)}-{digits(4)}"
    PH("br", f"Att.,\nJuliana Teixeira\nAnalista de RH | Grupo Horizonte\nCel.: {n}", n, "pt")
    n = f"55319{digits(8)}"
    PH("br", F("""{"pedido": "A-20931", "cliente": {"nome": "Marcos Vinícius", "telefone": "@@n@@"}, "entrega": "retirada"}""", n=n), n, "pt")

    # Mainland China: 11 digits 1[3-9]x.
    n = "138" + digits(8)
    PH("cn", f"收件人：王磊，电话 {n}，放丰巢柜就行，不用打电话。", n, "zh")
    n = f"+86 139 {digits(4)} {digits(4)}"
    PH("cn", f"Best regards,\nZhang Wei (张伟)\nProcurement, Ningbo office\nMobile: {n}\nWeChat: same as mobile", n)
    n = f"186-{digits(4)}-{digits(4)}"
    PH("cn", f"2024-04-11 09:13:52.118 INFO  [register] 新用户注册 uid=5521907 mobile={n} channel=wx_miniapp", n, "zh")

    # Taiwan: 09xx-xxx-xxx.
    n = f"09{digits(2)}-{digits(3)}-{digits(3)}"
    PH("tw", f"您好，我是來看房的林先生，手機：{n}，週末都可以聯絡。", n, "zh-Hant")
    n = f"+886 9{digits(2)} {digits(3)} {digits(3)}"
    PH("tw", f"Emergency contact: Huang Mei-ling (mother), {n}", n)

    # Japan: 070/080/090-xxxx-xxxx.
    n = f"090-{digits(4)}-{digits(4)}"
    PH("jp", f"お疲れ様です。退職後の連絡先を記載します。\n住所変更は総務へ別途提出済みです。\n携帯：{n}\nよろしくお願いいたします。", n, "ja")
    n = f"+81 80-{digits(4)}-{digits(4)}"
    PH("jp", f"予約者：高橋 美咲 様\n人数：2名\n連絡先：{n}\n備考：窓側希望", n, "ja")
    n = "070" + digits(8)
    PH("jp", f"BEGIN:VCARD\nVERSION:3.0\nN:中村;健太;;;\nFN:中村 健太\nTEL;TYPE=CELL:{n}\nEND:VCARD", n, "ja")

    # South Korea: 010-xxxx-xxxx.
    n = f"010-{digits(4)}-{digits(4)}"
    PH("kr", f"안녕하세요, 어제 중고나라에서 연락드린 사람입니다. 제 번호는 {n} 입니다. 문자 주세요!", n, "ko")
    n = f"+82 10 {digits(4)} {digits(4)}"
    PH("kr", f"Hi! I'm your host Jiwoo. If you get lost on the way from Hongdae station, call or KakaoTalk me at {n}.", n)

    # United States.
    n = f"(312) {digits(3, '2345678')}-{digits(4)}"
    PH("us", f"Still have the couch? I can pick it up Thursday after 5. Call or text {n}. - Mike", n)
    n = f"+1646{digits(3, '2345678')}{digits(4)}"
    PH("us", f"ts=2024-02-19T14:03:11Z level=info svc=notify msg=\"sms queued\" to={n} template=appt_reminder", n)
    n = f"305-{digits(3, '2345678')}-{digits(4)}"
    PH("us", f"Hola Carmen, llámame al {n} después de las seis, que hoy salgo tarde del trabajo.", n, "es")

    # United Kingdom: 07xxx xxxxxx.
    n = f"07{digits(3, '45789')} {digits(6)}"
    PH("uk", f"Dear Mr Hughes,\nThe boiler is making that noise again. I'm home all Tuesday, or ring me on {n}.\nKind regards, Sophie", n)
    n = f"+44 7{digits(3, '45789')} {digits(3)} {digits(3)}"
    PH("uk", f"INSERT INTO customers (id, full_name, mobile) VALUES (40917, 'Oliver Bennett', '{n}');", n)

    # Germany.
    n = f"0151 {digits(8)}"
    PH("de", f"Hallo, ich interessiere mich für die Wohnung in der Südstadt. Erreichbar unter {n} (auch WhatsApp). Viele Grüße, Lena", n, "de")
    n = f"+49 (0)176 {digits(7)}"
    PH("de", f"Mit freundlichen Grüßen\nTobias Brandt\nMobil: {n}", n, "de")

    # France.
    n = f"06 {digits(2)} {digits(2)} {digits(2)} {digits(2)}"
    PH("fr", f"Bonjour, c'est Camille, la nounou de Léo. Vous pouvez me joindre au {n} si la crèche ferme plus tôt.", n, "fr")
    n = f"+33 7 {digits(2)} {digits(2)} {digits(2)} {digits(2)}"
    PH("fr", f"Formulaire de contact\nNom : Antoine Girard\nTéléphone : {n}\nMessage : rappel pour le devis de toiture", n, "fr")

    # Spain.
    n = f"6{digits(2)} {digits(2)} {digits(2)} {digits(2)}"
    PH("es", f"Buenas, soy Lucía, la del piso de Lavapiés. Si te interesa la habitación, mi móvil es {n}.", n, "es")
    n = f"+34 6{digits(2)} {digits(3)} {digits(3)}"
    PH("es", f"Un saludo,\nJavier Ortega Ruiz\nMóvil: {n}", n, "es")

    # Italy.
    n = f"347 {digits(3)} {digits(4)}"
    PH("it", f"Ciao, sono Giulia. Per la ripetizione di matematica di Marco scrivimi pure, cell. {n}.", n, "it")
    n = f"+39 33{digits(1)} {digits(7)}"
    PH("it", f"Referente consegna: sig. Bianchi, tel. {n}, citofono 'Bianchi-Russo'.", n, "it")

    # Netherlands.
    n = f"06-{digits(8)}"
    PH("nl", f"Hoi, ik ben Sanne. Bel me even op {n} als je bij de voordeur staat, de bel is kapot.", n, "nl")

    # Poland.
    n = f"{pick(['501', '512', '533', '602', '664', '693', '721', '785'])} {digits(3)} {digits(3)}"
    PH("pl", f"Dzień dobry, w sprawie ogłoszenia o mieszkaniu proszę dzwonić pod numer {n} po 17:00. Anna", n, "pl")

    # Russia.
    n = f"+7 (9{digits(2)}) {digits(3)}-{digits(2)}-{digits(2)}"
    PH("ru", f"Здравствуйте! Курьер приедет завтра с 10 до 14. Контактный телефон получателя: {n}.", n, "ru")
    n = f"8 9{digits(2)} {digits(3)} {digits(2)} {digits(2)}"
    PH("ru", f"Продаю детскую коляску, почти новая. Звонить по номеру {n}, Ольга.", n, "ru")

    # Turkey.
    n = f"0 5{digits(2)} {digits(3)} {digits(2)} {digits(2)}"
    PH("tr", f"Merhaba, kargom hâlâ gelmedi. Ulaşabileceğiniz numara: {n}. Teşekkürler, Elif", n, "tr")
    n = f"+90 5{digits(2)} {digits(3)} {digits(4)}"
    PH("tr", f"Saygılarımla,\nMehmet Yıldız\nSatın Alma Uzmanı\nCep: {n}", n, "tr")

    # Mexico.
    n = f"+52 1 55 {digits(4)} {digits(4)}"
    PH("mx", f"Hola, soy Fernanda. Te paso mi cel para lo del depa en la Roma: {n}", n, "es")
    n = f"33 {digits(4)} {digits(4)}"
    PH("mx", f"Datos del cliente\nNombre: José Luis Hernández\nCelular: {n}\nCiudad: Guadalajara, Jal.", n, "es")

    # Indonesia.
    n = f"0812-{digits(4)}-{digits(4)}"
    PH("id", f"Halo kak, untuk pengiriman besok tolong hubungi nomor {n} ya, rumahnya di belakang masjid.", n, "id")

    # Vietnam.
    n = f"09{digits(1)} {digits(3)} {digits(4)}"
    PH("vn", f"Chào anh, em là Linh bên phòng trọ. Số điện thoại của em là {n}, anh gọi trước khi qua nhé.", n, "vi")
    n = f"+84 3{digits(1)} {digits(3)} {digits(4)}"
    PH("vn", f"Người nhận: Trần Văn Hùng\nSĐT: {n}\nGhi chú: giao giờ hành chính", n, "vi")

    # Thailand.
    n = f"08{digits(1)}-{digits(3)}-{digits(4)}"
    PH("th", f"สวัสดีค่ะ ถ้าพัสดุมาถึงแล้วโทรหาเบอร์ {n} ได้เลยนะคะ", n, "th")

    # Philippines.
    n = f"0917 {digits(3)} {digits(4)}"
    PH("ph", f"Hi po! Please text me at {n} when you're at the gate, the guard will ask for the unit owner. Salamat po!", n)

    # Australia.
    n = f"04{digits(2)} {digits(3)} {digits(3)}"
    PH("au", f"G'day, re the ute on Marketplace, still for sale. Call Dave on {n}, no lowballers.", n)
    n = f"+61 4{digits(2)} {digits(3)} {digits(3)}"
    PH("au", f"patient:\n  name: Chloe Nguyen\n  dob: 1991-07-23\n  mobile: \"{n}\"\n  gp: Dr A. Patel", n)

    # South Africa.
    n = f"082 {digits(3)} {digits(4)}"
    PH("za", f"Howzit, it's Thabo. Load-shedding killed my phone earlier, if you need me use {n} (my wife's is off).", n)

    # Nigeria.
    n = f"+234 803 {digits(3)} {digits(4)}"
    PH("ng", f"Good evening sir, this is Chidi the electrician. My line is {n}, I will come by 9am tomorrow.", n)

    # Egypt.
    n = "010" + digits(8)
    PH("eg", f"مساء الخير، أنا أحمد بخصوص الشقة المعروضة للإيجار. رقمي {n}، اتصل بي بعد العصر.", n, "ar")

    # Saudi Arabia.
    n = f"+966 5{digits(1)} {digits(3)} {digits(4)}"
    PH("sa", f"الاسم: فهد العتيبي\nالجوال: {n}\nالمدينة: الرياض", n, "ar")

    # UAE.
    n = f"+971 5{digits(1)} {digits(3)} {digits(4)}"
    PH("ae", f"Hi, regarding the studio in JLT: I can view it tomorrow at 7pm. WhatsApp me on {n}. Thanks, Priyanka", n)


# ================================================================ 3. bank data

# Italian CIN (the letter before ABI/CAB/account): odd positions (1-based) of the 22 characters
# ABI+CAB+account take the "odd" table, even positions their plain value (digit or A=0..Z=25);
# CIN = letter (sum mod 26).  Written from memory.
_IT_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]


def _it_val(ch):
    return int(ch) if ch.isdigit() else ord(ch) - 65


def it_cin(body22):
    total = sum(_IT_ODD[_it_val(c)] if i % 2 == 0 else _it_val(c) for i, c in enumerate(body22))
    return chr(65 + total % 26)


# Portuguese NIB: 4 bank + 4 branch + 11 account + 2 check; check = 98 - (first 19 * 100) mod 97,
# so that the 21 digits are 1 mod 97.
def pt_nib(body19):
    return f"{body19}{98 - int(body19 + '00') % 97:02d}"


# Mexican CLABE: 17 digits, weights 3,7,1 repeated, products mod 10 summed; check = (10 - sum mod 10) mod 10.
def clabe(bank3):
    body = bank3 + rs(DG, 14)
    s = sum(int(c) * w % 10 for c, w in zip(body, [3, 7, 1] * 6))
    return body + str((10 - s % 10) % 10)


# Russian account control key: the last 3 digits of the BIK + the 20-digit account, weights
# 7,1,3 repeated; the sum of the products must end in 0.  The key is the 9th digit of the account.
def ru_account(bik, prefix8="40817810"):
    tail = rs(DG, 11)
    acc0 = prefix8 + "0" + tail
    s = sum(int(c) * w for c, w in zip(bik[-3:] + acc0, [7, 1, 3] * 8))
    key = (s % 10) * 3 % 10
    return prefix8 + str(key) + tail


def BK(category, text, secret, lang=None, check=None):
    return add("secret", category, "bank", text, secret, lang, check)


def fr_rib_key(bank, branch, account):
    # RIB key = 97 - ((89*bank + 15*branch + 3*account) mod 97); all-digit parts here.
    return f"{97 - (89 * int(bank) + 15 * int(branch) + 3 * int(account)) % 97:02d}"


def es_dc(bank, branch, account):
    w = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]

    def d(s):
        r = 11 - sum(int(c) * x for c, x in zip(s, w)) % 11
        return {10: 1, 11: 0}.get(r, r)
    return f"{d('00' + bank + branch)}{d(account)}"


def nl_account():
    # Dutch "elfproef": sum of digit * (10 - position) is a multiple of 11.
    while True:
        a = rs(DG, 10)
        if sum(int(c) * (10 - i) for i, c in enumerate(a)) % 11 == 0 and a[0] != "0":
            return a


def bank():
    # ---- IBANs with spaces (mod 97 valid)
    ib = iban_spaced(iban("DE", "37040044" + digits(10, "0")))
    BK("iban", f"Hallo Herr Krause,\nbitte überweisen Sie die Kaution (3 Nettokaltmieten) bis zum 01.06. auf mein Konto:\n"
       f"Kontoinhaberin: Sabine Lorenz\nIBAN: {ib}\nVerwendungszweck: Kaution Wohnung 2. OG links", ib, "de", ("iban", ib))
    bk, br, ac = "30004", digits(5, "0"), digits(11, "0")
    ib = iban_spaced(iban("FR", bk + br + ac + fr_rib_key(bk, br, ac)))
    BK("iban", f"Bonjour, voici mon RIB pour le remboursement des frais de la sortie scolaire :\nTitulaire : M. Julien Marchand\n"
       f"IBAN : {ib}\nBIC : BNPAFRPPXXX\nMerci !", ib, "fr", ("iban", ib))
    ib = iban_spaced(iban("GB", "NWBK" + "60" + digits(4) + digits(8)))
    BK("iban", f"Payee: Daniel Price (sole trader, invoice #{digits(4)})\nIBAN: {ib}\nBIC: NWBKGB2L\n"
       "Please quote the invoice number as reference.", ib, check=("iban", ib))
    bk, br, ac = "2100", digits(4), digits(10)
    ib = iban_spaced(iban("ES", bk + br + es_dc(bk, br, ac) + ac))
    BK("iban", f"Hola Marta, te paso la cuenta para lo del regalo de jubilación de Paco: {ib} (titular: Rocío Fernández). "
       "Bizum también vale.", ib, "es", ("iban", ib))
    abi_cab_acc = "03069" + digits(5) + digits(12, "01")
    ib = iban_spaced(iban("IT", it_cin(abi_cab_acc) + abi_cab_acc))
    BK("iban", f"Gentile cliente,\nper il saldo della fattura n. {digits(3)}/2024 effettuare bonifico a:\n"
       f"Intestatario: Studio Tecnico Geom. Ferri Luca\nIBAN {ib}\nCausale: saldo pratica catastale", ib, "it", ("iban", ib))
    CHECKS.append((CASES[-1]["id"], "it_cin", ib))
    ib = iban_spaced(iban("NL", "INGB" + nl_account()))
    BK("iban", f"Tikkie werkt niet, dus maak het gewoon over naar {ib} t.n.v. R. de Vries. Bedankt voor het etentje!", ib, "nl", ("iban", ib))
    ib = iban_spaced(iban("PL", "1090" + digits(4) + digits(16)))
    BK("iban", f"Dane do przelewu za wynajem: Katarzyna Nowak, nr rachunku {ib}, tytuł: czynsz maj 2024.", ib, "pl", ("iban", ib))
    ib = iban_spaced(iban("CH", "00" + digits(3) + digits(12)))
    BK("iban", f"employee_id;name;iban;salary_chf\n10442;Meier Reto;{ib};8450.00", ib, "de", ("iban", ib))
    ib = iban_spaced("BE" + iban("BE", be_bban())[2:])
    BK("iban", F("""{"payee": {"name": "Léa Dupont", "iban": "@@ib@@", "bic": "GEBABEBB"}, "amount": {"value": "420.00", "currency": "EUR"}, "remittance": "Loyer juin"}""",
                 ib=ib), ib, check=("be_bban", ib))
    CHECKS.append((CASES[-1]["id"], "iban", ib))
    ib = iban_spaced(iban("TR", "00062" + "0" + digits(16)))
    BK("iban", f"Merhaba, kaparo için IBAN: {ib} (Alıcı: Ayşe Demir). Açıklamaya daire numarasını yazarsanız sevinirim.", ib, "tr", ("iban", ib))
    ib = iban_spaced(iban("SA", "80" + digits(18, "0")))
    BK("iban", f"يرجى تحويل مبلغ الإيجار إلى الحساب التالي:\nاسم المستفيد: خالد الزهراني\nرقم الآيبان: {ib}\nمصرف الراجحي", ib, "ar", ("iban", ib))
    ib = iban_spaced(iban("AE", "033" + digits(16, "01")))
    BK("iban", f"Salary transfer form\nEmployee: Arjun Menon\nBank: Mashreq\nIBAN: {ib}\nSignature: ________", ib, check=("iban", ib))
    ib = iban_spaced(iban("PT", pt_nib("0035" + digits(4) + digits(11))))
    BK("iban", f"Olá Rui, o IBAN para a quota do condomínio é {ib}, em nome de Maria do Carmo Sousa.", ib, "pt", ("iban", ib))
    CHECKS.append((CASES[-1]["id"], "pt_nib", ib))

    # ---- Visa / Mastercard / UnionPay card numbers with spaces or dashes (Luhn valid)
    c = card("4", 16)
    s = grp(c, [4, 4, 4, 4])
    BK("card_visa", f"Customer (chat 14:02): ok here is my card {s} exp 09/27, please just book the refundable rate", s, check=("luhn", s))
    c = card("4" + digits(5), 16)
    s = grp(c, [4, 4, 4, 4], "-")
    BK("card_visa", f"POST /api/checkout 500\nrequest.body = {{\"cardNumber\": \"{s}\", \"holder\": \"K SCHMIDT\", \"amount\": 129.9}}", s, check=("luhn", s))
    c = card("4", 16)
    s = grp(c, [4, 4, 4, 4])
    BK("card_visa", f"Mein Mann hat die Zahlung storniert, bitte buchen Sie stattdessen von meiner Karte ab: {s}, gültig bis 03/26.", s, "de", ("luhn", s))
    c = card("53", 16)
    s = grp(c, [4, 4, 4, 4])
    BK("card_mastercard", f"Hi, the payment link expired. Card number {s}, expiry 11/26, name Priya S Nair. Thanks!", s, check=("luhn", s))
    c = card("2223", 16)
    s = grp(c, [4, 4, 4, 4], "-")
    BK("card_mastercard", f"Tarjeta de la empresa para las reservas del congreso: {s} (Mastercard corporativa, titular A. Romero).", s, "es", ("luhn", s))
    c = card("55", 16)
    s = c
    BK("card_mastercard", f"2024-03-18 22:41:07,330 WARN  PaymentGateway - retry 2/3 pan={s} amount=54.20 EUR code=05", s, check=("luhn", s))
    c = card("6250", 16)
    s = grp(c, [4, 4, 4, 4])
    BK("card_unionpay", f"Guest asked to pay the deposit by UnionPay: {s}, valid thru 08/28. Please charge at check-in.", s, check=("luhn", s))
    c = card("6221", 19)
    s = grp(c, [4, 4, 4, 4, 3], "-")
    BK("card_unionpay", f"お客様のカード番号（銀聯）：{s}　有効期限：12/27　※決済後に破棄してください", s, "ja", ("luhn", s))
    c = card("6282", 17)
    s = grp(c, [6, 11])
    BK("card_unionpay", f"Оплата картой UnionPay: номер {s}, держатель LI NA. Просьба списать предоплату 30%.", s, "ru", ("luhn", s))

    # ---- Chinese bank card numbers in Chinese text
    c = card("622202", 19)
    BK("cn_bank_card", f"工资卡换了，新的卡号是 {c}，工商银行，开户行是杭州西湖支行，麻烦财务更新一下。", c, "zh", ("luhn", c))
    c = card("622848", 19)
    s = grp(c, [4, 4, 4, 4, 3])
    BK("cn_bank_card", f"房租打到这张卡：农业银行 {s}，户名李秀英，打完截图发我。", s, "zh", ("luhn", s))
    c = card("621700", 19)
    BK("cn_bank_card", f"报销单\n姓名：赵强\n部门：华东销售部\n收款银行：中国建设银行\n银行卡号：{c}\n金额：¥3,280.00", c, "zh", ("luhn", c))
    c = card("622588", 16)
    s = grp(c, [4, 4, 4, 4])
    BK("cn_bank_card", f"退款請匯入招商銀行卡 {s}（戶名：周怡君），謝謝。", s, "zh-Hant", ("luhn", s))

    # ---- SWIFT/BIC payment instructions with an account number (the account is the secret)
    a = f"{digits(3, '0')}-{digits(6)}-{digits(3)}"
    BK("swift_account", f"Wire instructions\nBeneficiary: Chan Tai Man\nBank: The Hongkong and Shanghai Banking Corporation Ltd\n"
       f"SWIFT: HSBCHKHHHKH\nAccount no.: {a}\nPlease bear all charges (OUR).", a)
    a = digits(12, "14")
    BK("swift_account", f"境外汇款信息：\n收款人：刘洋\n收款银行：中国银行北京分行\nSWIFT CODE：BKCHCNBJ110\n账号：{a}\n附言请写 tuition fee", a, "zh")
    a = f"{digits(3, '0')}-{digits(1)}-{digits(6)}"
    BK("swift_account", f"Hi Wei Ling, for the refund please send to DBS Bank, SWIFT DBSSSGSG, account {a} (Tan Wei Ling). Cheers", a)
    a = digits(7)
    BK("swift_account", f"海外送金の受取口座\n銀行名：三菱UFJ銀行（BOTKJPJT）\n支店：渋谷支店（店番135）\n普通預金　口座番号：{a}\n名義：ヤマダ タロウ", a, "ja")

    # ---- US routing + account
    a = digits(9, "3456789")
    BK("us_account", f"Direct deposit form\nEmployee: Marcus J. Reed\nBank: JPMorgan Chase\nRouting (ABA): 021000021\n"
       f"Account: {a}\nType: Checking", a, check=("aba", "021000021"))
    a = digits(12, "4")
    BK("us_account", f"hey can you venmo... jk just ACH it: routing 026009593 acct {a}, name on acct Tyler Brooks", a, check=("aba", "026009593"))
    a = digits(10, "123456789")
    BK("us_account", F("""{"vendor_id": "V-2207", "ach": {"routing_number": "121000248", "account_number": "@@a@@", "account_type": "savings"}}""", a=a),
       a, check=("aba", "121000248"))

    # ---- UK sort code + account
    a = digits(8, "1234567")
    BK("uk_account", f"Hi Tom, for the stag do money: sort code 20-{digits(2)}-{digits(2)}, account {a}, Ben Carter. £85 each pls", a)
    a = digits(8, "1234567")
    BK("uk_account", f"Name,Sort code,Account number,Amount\nEmily Watson,40-{digits(2)}-{digits(2)},{a},1250.00", a)
    a = digits(8, "1234567")
    BK("uk_account", f"Please update my bank details for the pension payments.\nAccount name: Mrs Margaret Doyle\n"
       f"Sort code: 30 {digits(2)} {digits(2)}\nAccount number: {a}", a)

    # ---- India IFSC + account
    a = digits(11, "3")
    BK("in_account", f"Sir, kindly transfer the security deposit refund to:\nName: Anil Kumar Sharma\nBank: State Bank of India\n"
       f"A/c No: {a}\nIFSC: SBIN000{digits(4)}", a)
    a = "5010" + digits(10)
    BK("in_account", f"Beneficiary: Deepa Krishnan | HDFC Bank | IFSC HDFC000{digits(4)} | Account {a} | NEFT/IMPS", a)
    a = digits(12, "0")
    BK("in_account", f"कृपया किराया इस खाते में जमा करें: खाता संख्या {a}, IFSC ICIC000{digits(4)}, नाम सुनीता वर्मा।", a, "hi")

    # ---- Brazil PIX keys (CPF or phone)
    k = cpf()
    BK("pix", f"Pode fazer o PIX pra mim? A chave é meu CPF: {k} (Fernanda Alves). Valeu!", k, "pt", ("cpf", k))
    k = cpf().replace(".", "").replace("-", "")
    BK("pix", f"Dados para pagamento da diarista\nNome: Maria José da Silva\nChave PIX (CPF): {k}\nValor: R$ 180,00", k, "pt", ("cpf", k))
    k = f"+55119{digits(8)}"
    BK("pix", f"Chave pix celular {k}, em nome de Rafael Costa. Manda o comprovante aqui no grupo.", k, "pt")

    # ---- Australia BSB + account
    a = digits(8, "1234")
    BK("au_account", f"Rent for the share house goes to: BSB 062-{digits(3)}, Acc {a}, name J. O'Connor. Ref: your room number.", a)
    a = digits(9, "1234")
    BK("au_account", f"payee:\n  name: Harper Wilson\n  bsb: \"083-{digits(3)}\"\n  account: \"{a}\"\n  description: bond refund", a)
    k = digits(9, "1234")
    BK("au_account", f"Hey mate, the footy tipping pot is $240 - I'll chuck it to you. BSB 033-{digits(3)} "
       f"account {k}? (Westpac, Liam Murphy)", k)

    # ---- Amex (15 digits, 34/37, 4-6-5) and JCB (35, 16 digits)
    c = card(pick(["34", "37"]), 15)
    s = grp(c, [4, 6, 5])
    BK("card_amex", f"Reservation note: guarantee with AMEX {s}, exp 05/27, card holder ROBERT HALL. Late arrival ~23:00.", s, check=("luhn", s))
    c = card("37", 15)
    s = grp(c, [4, 6, 5], "-")
    BK("card_amex", f"Hola, para la fianza del coche de alquiler usad mi American Express {s}, caduca 10/26. Gracias, Nuria", s, "es", ("luhn", s))
    c = card("35" + pick(["28", "41", "66", "89"]), 16)
    s = grp(c, [4, 4, 4, 4])
    BK("card_jcb", f"【ご予約確認】カード種類：JCB　カード番号：{s}　有効期限：2027年4月　名義：SUZUKI HANAKO", s, "ja", ("luhn", s))

    # ---- Japan: bank, branch, type, 7-digit account (the account is the secret)
    a = digits(7)
    BK("jp_account", f"立替分の精算をお願いします。\nみずほ銀行　新宿支店（店番号{digits(3, '12')}）\n普通　{a}\nタナカ ユウキ", a, "ja")
    a = digits(7)
    BK("jp_account", f"振込先：ゆうちょ銀行 〇一八店 普通 {a} カトウ ミホ（ゆうちょ間は記号12345-番号も可）", a, "ja")

    # ---- Korea: account numbers with bank-specific grouping
    a = f"{digits(6)}-{digits(2)}-{digits(6)}"
    BK("kr_account", f"축의금은 국민은행 {a} (예금주 박서연) 으로 보내주시면 됩니다. 감사합니다!", a, "ko")
    a = f"110-{digits(3)}-{digits(6)}"
    BK("kr_account", f"중고거래 입금 계좌: 신한 {a} 김민준\n입금하시고 문자 주세요.", a, "ko")

    # ---- Canada: transit, institution, account
    a = digits(7)
    BK("ca_account", f"Direct deposit info for payroll:\nTransit: {digits(5)}\nInstitution: 004 (TD)\nAccount: {a}\nName: Olivia Tremblay", a)

    # ---- Mexico: CLABE (18 digits with a check digit)
    k = clabe("012")
    BK("mx_clabe", f"Hola, te paso mi CLABE para la transferencia del depósito: {k} (BBVA, a nombre de Diego Ramírez).", k, "es", ("clabe", k))
    k = clabe("072")
    BK("mx_clabe", f"proveedor,rfc_banco,clabe,monto\nFletes Aguilar,Banorte,{k},18500.00", k, "es", ("clabe", k))

    # ---- Russia: 20-digit personal account with the BIK of the bank
    bik = "044525225"
    acc = ru_account(bik)
    BK("ru_account", f"Реквизиты для перевода:\nПолучатель: Смирнова Анна Викторовна\nСчёт: {acc}\n"
       f"Банк: ПАО Сбербанк\nБИК: {bik}\nНазначение: возврат за билеты", acc, "ru", ("ru_account", f"{bik}/{acc}"))


# ================================================================ 4. passwords

PW_WORDS = ["Falke", "Sommer", "Tiger", "Harbor", "Maple", "Kirsche", "Pelican", "Nebula", "Granite",
            "Cobalt", "Juniper", "Saffron", "Tundra", "Velvet", "Orchid", "Monsun", "Lantern", "Quasar",
            "Zephyr", "Biscuit", "Marmot", "Paprika", "Sakura", "Hangang", "Tortuga", "Volga"]
PHRASE_WORDS = ["amber", "bridge", "candle", "delta", "ember", "fjord", "gravel", "hollow", "island",
                "jacket", "kettle", "lemon", "meadow", "nickel", "otter", "pillow", "quartz", "river",
                "saddle", "timber", "umber", "violet", "walnut", "yonder"]
PINYIN = ["zhangwei", "liuyang", "wangfang", "chenjing", "lixiaolong", "zhaolei", "huangmin", "sunli"]
SAFE_SYMS = "!#%*?+-_=."


def pw_human(syms="!#%*?", lead_sym=True):
    """A human-chosen password: word + year or digits + symbols.  lead_sym=False keeps the first
    character a letter (YAML would read a leading ! * ? % as syntax)."""
    w = pick(PW_WORDS)
    year = str(R.randint(1965, 2024))
    form = R.randrange(4) if lead_sym else pick([0, 1, 3])
    if form == 0:
        p = w + year + pick(syms)
    elif form == 1:
        p = w + pick(syms) + year
    elif form == 2:
        p = pick(syms) + w.lower() + year + pick(UP)
    else:
        p = w[0].lower() + w[1:].upper() + digits(3) + pick(syms) + pick(syms)
    assert len(p) >= 8
    return p


def pw_strong(n=None, syms=SAFE_SYMS):
    n = n or R.randint(14, 24)
    while True:
        p = rs(ALNUM + syms * 2, n)
        if (any(c in UP for c in p) and any(c in LO for c in p) and any(c in DG for c in p)
                and any(c in syms for c in p)):
            return p


def pw_alnum(n=None):
    n = n or R.randint(12, 20)
    while True:
        p = rs(ALNUM, n)
        if any(c in UP for c in p) and any(c in LO for c in p) and any(c in DG for c in p):
            return p


def pw_phrase(sep="-"):
    return sep.join(R.sample(PHRASE_WORDS, 4)) + sep + digits(2)


def pw_pinyin():
    return pick(PINYIN) + str(R.randint(1970, 2004)) + f"{R.randint(1, 12):02d}{R.randint(1, 28):02d}"


def PW(cat, text, secret, lang=None):
    return add("secret", "password_" + cat, "password", text, secret, lang, min_len=8)


def passwords():
    import urllib.parse

    # ---- .env / shell environment
    p = pw_strong()
    PW("env", F("""\
APP_ENV=production
APP_DEBUG=false
DB_CONNECTION=mysql
DB_HOST=10.20.4.17
DB_PORT=3306
DB_DATABASE=shop
DB_USERNAME=shop_app
DB_PASSWORD=@@p@@
CACHE_DRIVER=redis
""", p=p), p)
    p = pw_human()
    PW("env", f"# mail (Mailjet relay)\nMAIL_HOST=in-v3.mailjet.com\nMAIL_PORT=587\nMAIL_USERNAME=noreply@harbor-dental.de\n"
       f"MAIL_PASSWORD=\"{p}\"\nMAIL_ENCRYPTION=tls", p)
    p = pw_strong(syms="!#%*-_+=$&")
    PW("env", f"$ export PGPASSWORD='{p}'\n$ psql -h pg-replica.internal -U analytics -d warehouse -c '\\dt'", p)

    # ---- docker / compose
    p = pw_alnum()
    PW("compose", F("""\
services:
  db:
    image: postgres:16-alpine
    restart: unless-stopped
    environment:
      POSTGRES_USER: gitea
      POSTGRES_PASSWORD: @@p@@
      POSTGRES_DB: gitea
    volumes:
      - ./pgdata:/var/lib/postgresql/data
""", p=p), p)
    p = pw_human("!#%*")
    PW("compose", F("""\
version: "3.8"
services:
  mariadb:
    image: mariadb:11
    environment:
      - MYSQL_ROOT_PASSWORD=@@p@@
      - MYSQL_DATABASE=nextcloud
    ports:
      - "127.0.0.1:3306:3306"
""", p=p), p)
    p = pw_strong(syms="!%*-_+=")
    PW("compose", f"docker run -d --name rabbit -p 5672:5672 -p 15672:15672 \\\n  -e RABBITMQ_DEFAULT_USER=ops \\\n"
       f"  -e RABBITMQ_DEFAULT_PASS={p} \\\n  rabbitmq:3-management", p)

    # ---- Kubernetes
    p = pw_strong()
    PW("k8s", F("""\
apiVersion: v1
kind: Secret
metadata:
  name: keycloak-db
  namespace: auth
type: Opaque
stringData:
  username: keycloak
  password: "@@p@@"
""", p=p), p)
    p = pw_human()
    enc = base64.b64encode(p.encode()).decode()
    PW("k8s", F("""\
apiVersion: v1
kind: Secret
metadata:
  name: grafana-admin
type: Opaque
data:
  admin-user: YWRtaW4=
  admin-password: @@e@@
""", e=enc), enc)
    p = pw_strong(syms="!#%*-_+=$&")
    PW("k8s", f"kubectl -n payments create secret generic ledger-pg \\\n  --from-literal=username=ledger \\\n"
       f"  --from-literal=password='{p}'\nsecret/ledger-pg created", p)
    p = pw_alnum(20)
    PW("k8s", f"$ kubectl get secret argocd-initial-admin-secret -n argocd -o jsonpath=\"{{.data.password}}\" | base64 -d; echo\n{p}", p)
    p = pw_alnum(16)
    PW("k8s", f"helm upgrade --install redis bitnami/redis -n cache \\\n  --set auth.enabled=true \\\n"
       f"  --set auth.password={p} \\\n  --set replica.replicaCount=2", p)

    # ---- command-line flags
    p = pw_human("!#%*")
    PW("cli", f"[root@db01 ~]# mysql -u root -p{p} -h 127.0.0.1 -e 'SHOW PROCESSLIST'\n"
       "mysql: [Warning] Using a password on the command line interface can be insecure.", p)
    p = pw_strong(syms="!#%*-_+=$&")
    PW("cli", f"0 3 * * * mysqldump --user=backup --password='{p}' --single-transaction --all-databases | gzip > /srv/backup/all-$(date +\\%F).sql.gz", p)
    p = pw_human()
    PW("cli", f"for h in web01 web02 web03; do\n  sshpass -p '{p}' ssh -o StrictHostKeyChecking=no deploy@$h 'sudo systemctl restart nginx'\ndone", p)
    p = pw_alnum()
    PW("cli", f"$ redis-cli -h redis-master.cache.svc -p 6379 -a {p} --no-auth-warning INFO replication\n# Replication\nrole:master\nconnected_slaves:2", p)
    p = pw_alnum()
    PW("cli", f"PGPASSWORD={p} pg_dump -h 10.0.3.21 -U odoo -Fc odoo_prod > odoo_$(date +%Y%m%d).dump", p)
    p = pw_strong(syms="!#%*-_+=")
    PW("cli", f"$ curl -s -u 'admin:{p}' https://jenkins.ci.internal/api/json?tree=jobs[name,color] | jq '.jobs | length'\n42", p)
    p = pw_human("!#%*?")
    PW("cli", f"C:\\> net user svc_backup {p} /add /passwordchg:no\nThe command completed successfully.\n"
       "C:\\> net localgroup \"Backup Operators\" svc_backup /add", p)
    p = pw_phrase()
    PW("cli", f"$ nmcli dev wifi connect \"Buero-5G\" password \"{p}\"\nDevice 'wlp2s0' successfully activated with 'b1f0c3a2-7d4e-4f0e-9a51-2c8e6f1d3b77'.", p)
    p = pw_strong(syms="!#%*-_+=")
    PW("cli", f"ldapsearch -x -H ldaps://ldap.corp.internal -D \"cn=readonly,dc=corp,dc=internal\" -w '{p}' "
       "-b \"ou=people,dc=corp,dc=internal\" \"(uid=jdoe)\" mail", p)

    # ---- DSNs and connection strings
    p = pw_alnum()
    PW("dsn", f"$ psql \"postgresql://report:{p}@pg-prod.internal:5432/metrics?sslmode=require\"\npsql (16.2)\n"
       "SSL connection (protocol: TLSv1.3)\nmetrics=>", p)
    p = pw_alnum()
    PW("dsn", f"spring.datasource.url=jdbc:mysql://mysql.internal:3306/crm?user=crm_app&password={p}&useSSL=true&serverTimezone=UTC", p)
    p = pw_strong(syms="!#%*-_+=")
    PW("dsn", F("""\
{
  "ConnectionStrings": {
    "Default": "Server=tcp:sql-weu-prod.database.windows.net,1433;Initial Catalog=Orders;User ID=orders_app;Password=@@p@@;Encrypt=True;"
  }
}""", p=p), p)
    p = pw_alnum()
    PW("dsn", f"mongosh \"mongodb+srv://atlasAdmin:{p}@cluster0.ab1cd.mongodb.net/inventory?retryWrites=true&w=majority\"", p)
    p = pw_alnum(24)
    PW("dsn", f"CELERY_BROKER_URL = \"redis://:{p}@redis.internal:6379/0\"\nCELERY_RESULT_BACKEND = CELERY_BROKER_URL", p)
    p = pw_alnum()
    PW("dsn", f"2024-05-14 08:12:44 INFO  consumer started, broker=amqp://orders:{p}@rabbitmq.prod:5672/orders prefetch=20", p)
    p = pw_alnum()
    PW("dsn", f"[oracle@ora19 ~]$ sqlplus system/{p}@//ora19.corp.internal:1521/ORCLPDB1\n\nSQL*Plus: Release 19.0.0.0.0 - Production", p)
    p = pw_strong(syms="!#%*-_+=")
    PW("dsn", f"dsn := \"gateway:{p}@tcp(127.0.0.1:3306)/gateway?parseTime=true&charset=utf8mb4\"\ndb, err := sql.Open(\"mysql\", dsn)", p)
    p = pick(PW_WORDS) + "@" + digits(4) + pick("!#%")
    enc = urllib.parse.quote(p, safe="")
    PW("dsn", f"SQLALCHEMY_DATABASE_URI = \"mysql+pymysql://flask:{enc}@db.internal/blog?charset=utf8mb4\"  # @ encoded as %40", enc)
    p = pw_alnum()
    PW("dsn", f"; /etc/odbc.ini\n[warehouse]\nDriver   = /usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so\nServername = dwh.internal\n"
       f"Port     = 5432\nDatabase = dwh\nUID      = tableau\nPWD      = {p}", p)
    p = pw_alnum()
    PW("dsn", f"pip install --index-url https://ci-reader:{p}@nexus.corp.internal/repository/pypi-group/simple internal-utils==2.4.1", p)

    # ---- config files
    p = pw_strong()
    PW("config", F("""\
{
  "database": {
    "host": "db.internal",
    "port": 5432,
    "user": "billing",
    "password": "@@p@@",
    "pool": {"min": 2, "max": 10}
  }
}""", p=p), p)
    p = pw_human(lead_sym=False)
    PW("config", F("""\
spring:
  datasource:
    url: jdbc:postgresql://pg.internal:5432/hr
    username: hr_app
    password: @@p@@
  jpa:
    hibernate:
      ddl-auto: validate
""", p=p), p)
    p = pw_strong()
    PW("config", f"; config.ini\n[database]\nhost = 127.0.0.1\nport = 3306\nuser = wiki\npassword = {p}\n\n[cache]\nbackend = memcached", p)
    p = pw_strong(syms="!#%*-_+=$&")
    PW("config", f"/** MySQL settings */\ndefine( 'DB_NAME', 'wp_blog' );\ndefine( 'DB_USER', 'wp_blog' );\n"
       f"define( 'DB_PASSWORD', '{p}' );\ndefine( 'DB_HOST', 'localhost' );", p)
    p = pw_alnum()
    PW("config", F("""\
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "lms",
        "USER": "lms",
        "PASSWORD": "@@p@@",
        "HOST": "10.1.0.12",
        "PORT": "5432",
    }
}""", p=p), p)
    p = pw_alnum()
    PW("config", f"$ cat ~/.pgpass\n# hostname:port:database:username:password\npg-prod.internal:5432:*:etl:{p}", p)
    p = pw_strong()
    PW("config", f"$ cat ~/.netrc\nmachine artifactory.corp.internal\n  login ci-bot\n  password {p}", p)
    p = pw_human()
    PW("config", f"# /root/.my.cnf\n[client]\nuser=root\npassword=\"{p}\"\nsocket=/var/run/mysqld/mysqld.sock", p)
    p = pw_strong(syms="!#%*-_+=")
    PW("config", F("""\
<settings>
  <servers>
    <server>
      <id>corp-releases</id>
      <username>deployer</username>
      <password>@@p@@</password>
    </server>
  </servers>
</settings>""", p=p), p)
    p = pw_human("!#%*")
    PW("config", f"!\nusername admin privilege 15 password 0 {p}\nline vty 0 4\n login local\n transport input ssh\n!", p)
    p = pw_human()
    PW("config", f"[webservers]\nweb01.corp.internal\nweb02.corp.internal\n\n[webservers:vars]\nansible_user=ubuntu\n"
       f"ansible_become_pass={p}", p)
    p = pw_strong(syms="!#%*-_+=")
    PW("config", F("""\
resource "azurerm_mssql_server" "main" {
  name                         = "sql-crm-prod"
  resource_group_name          = azurerm_resource_group.crm.name
  location                     = "westeurope"
  version                      = "12.0"
  administrator_login          = "crmadmin"
  administrator_login_password = "@@p@@"
}""", p=p), p)
    p = pw_strong(syms="!#%*-_+=")
    PW("config", f"CREATE USER 'reporting'@'10.0.%' IDENTIFIED BY '{p}';\nGRANT SELECT ON sales.* TO 'reporting'@'10.0.%';", p)

    # ---- tables
    p = pw_human()
    PW("table", f"## Staging accounts\n\n| system | user | password | notes |\n|---|---|---|---|\n"
       f"| Grafana | admin | {p} | SSO is off on staging |\n| Kibana | elastic | see Vault | |\n", p)
    p = pw_human()
    PW("table", f"username,email,password,role\nm.kowalczyk,m.kowalczyk@ostoja-meble.pl,{p},editor", p)

    # ---- logs
    p = pw_strong()
    PW("log", f"2024-06-02 03:00:01,114 DEBUG etl.sources - connecting with params "
       f"{{'host': 'erp-db', 'user': 'etl_reader', 'password': '{p}', 'dbname': 'erp'}}", p)

    # ---- prose, many languages
    p = pw_phrase()
    PW("prose", f"Hey all, guest wifi for the offsite is \"Lakeside-Guest\", password is {p} - it resets on Monday.", p)
    p = pw_pinyin()
    PW("prose", f"服务器已经装好了，IP 是 10.8.0.23，root 密码：{p}，登录后记得先改密码。", p, "zh")
    p = pw_human()
    PW("prose", f"【测试环境】后台地址 https://admin-test.internal/\n账号：admin\n密码：{p}\n有问题群里说。", p, "zh")
    p = pw_alnum(12)
    PW("prose", f"公司 Wi-Fi 名稱：Office-5F，密碼是 {p}，訪客請用 Guest 網路。", p, "zh-Hant")
    p = pw_human()
    PW("prose", f"お疲れ様です。共有フォルダのパスワードは「{p}」です。月末に変更しますので、メモは残さないでください。", p, "ja")
    p = pw_human()
    PW("prose", f"팀장님, 회계 시스템 임시 비밀번호는 {p} 입니다. 첫 로그인 후 꼭 변경해 주세요.", p, "ko")
    p = pw_human()
    PW("prose", f"Hola Marta, la contraseña del portal de proveedores es {p} (usuario: compras). No la reenvíes, porfa.", p, "es")
    p = pw_human()
    PW("prose", f"Hallo Jens, das Passwort für den Router im Lager lautet {p}. Bitte nach der Einrichtung ändern.", p, "de")
    p = pw_human()
    PW("prose", f"Коллеги, пароль от сервера 1С: {p}, логин Администратор. Не пересылайте, пожалуйста.", p, "ru")
    p = pw_human()
    PW("prose", f"Bonjour, voici vos identifiants pour l'espace client : identifiant DUPONT_C, mot de passe : {p}", p, "fr")
    p = pw_human()
    PW("prose", f"Oi Bruno, a senha do Wi-Fi do escritório mudou, agora é {p}. Abraço!", p, "pt")
    p = pw_human()
    PW("prose", f"Ciao Sara, la password della casella PEC è {p}, cambiala al primo accesso.", p, "it")
    p = pw_human()
    PW("prose", f"Chào anh, mật khẩu tài khoản quản trị website là {p}, anh đăng nhập rồi đổi giúp em nhé.", p, "vi")


# ================================================================ 5. split secrets
#
# `secret` convention (also in README.md): when the pieces of a value are kept apart by code
# syntax (quotes, +, variables), by prose or by a line break, `secret` is the single piece that
# identifies the value best: the longest piece that is not a public prefix (sk-proj-, ghp_, the
# IBAN country + bank code), the first one on a tie.  When only separators are inserted inside one
# run of text (spaces between groups or between characters), `secret` is the whole run as written,
# from the first to the last character of the value, separators included.

def cut(value, *sizes):
    """Splits value into pieces of the given sizes; the last piece takes the rest."""
    out, i = [], 0
    for n in sizes:
        out.append(value[i:i + n])
        i += n
    out.append(value[i:])
    assert "".join(out) == value and all(out), (value, sizes)
    return out


def longest(pieces, skip_first=False):
    cand = pieces[1:] if skip_first else pieces
    return max(cand, key=len)  # max keeps the first on a tie


def SP(cat, text, secret, full, lang=None, seps=""):
    bare = "".join(c for c in secret if c not in seps)
    assert bare in "".join(c for c in full if c not in seps), (secret, full)
    assert text.count(secret) == 1, (cat, secret)
    return add("secret", "split_" + cat, "split", text, secret, lang, min_len=8)


def splits():
    # ---- concatenation in code
    k = "sk-proj-" + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74)
    ps = cut(k, 30, 62)
    s = longest(ps)
    SP("concat", F("""\
# don't commit the key in one piece, the scanner flags it (!)
OPENAI_KEY = "@@a@@" + \\
             "@@b@@" + \\
             "@@c@@"
client = OpenAI(api_key=OPENAI_KEY)
""", a=ps[0], b=ps[1], c=ps[2]), s, k)

    k = "ghp_" + rs(ALNUM, 36)
    ps = cut(k, 4, 16)
    s = longest(ps, skip_first=True)
    SP("concat", f"const token = '{ps[0]}' + '{ps[1]}' + '{ps[2]}';\nconst octokit = new Octokit({{ auth: token }});", s, k)

    p = pw_strong(20)
    ps = cut(p, 12)
    s = longest(ps)
    SP("concat", F("""\
public class DbConfig {
    // split so it does not show up in grep
    private static final String PW = "@@a@@" + "@@b@@";
    static final String URL = "jdbc:postgresql://pg.internal:5432/erp";
}""", a=ps[0], b=ps[1]), s, p)

    k = rs(B64, 40)
    ps = cut(k, 14, 13)
    s = longest(ps)
    SP("concat", F("""\
	creds := credentials.NewStaticCredentialsProvider(
		"AKIA@@id@@",
		"@@a@@"+"@@b@@"+"@@c@@",
		"")
""", id=rs(UPNUM, 16), a=ps[0], b=ps[1], c=ps[2]), s, k)

    k = "sk_live_51" + rs(ALNUM, 97)
    ps = cut(k, 10, 50)
    s = longest(ps, skip_first=True)
    SP("concat", f"KEY_A='{ps[0]}'\nKEY_B='{ps[1]}'\nKEY_C='{ps[2]}'\nexport STRIPE_SECRET_KEY=\"${{KEY_A}}${{KEY_B}}${{KEY_C}}\"\n./bin/reconcile --since 2024-05-01", s, k)

    k = f"xoxb-{digits(12, '123456789')}-{digits(13, '123456789')}-{rs(ALNUM, 24)}"
    ps = cut(k, 18, 14)
    s = longest(ps)
    SP("concat", f"var slackToken = string.Concat(\"{ps[0]}\", \"{ps[1]}\", \"{ps[2]}\");\nvar client = new SlackTaskClient(slackToken);", s, k)

    k = "shpat_" + rs(HEX, 32)
    ps = cut(k, 6, 16)
    s = longest(ps, skip_first=True)
    SP("concat", f"ShopifyAPI::Context.setup(\n  api_key: ENV['SHOPIFY_KEY'],\n  api_secret_key: %w[{ps[0]} {ps[1]} {ps[2]}].join,\n  host: 'lumen-candles.myshopify.com'\n)", s, k)

    k = f"{rs(HEX, 32)}-{rs(HEX, 8)}-{rs(HEX, 8)}"
    ps = cut(k, 20, 13)
    s = longest(ps)
    SP("concat", f"<?php\n$mgKey = '{ps[0]}' . '{ps[1]}' . '{ps[2]}';\n$mg = Mailgun::create($mgKey, 'https://api.eu.mailgun.net');", s, k)

    k = rs(HEX, 32)
    ps = cut(k, 18)
    s = longest(ps)
    SP("concat", f"-- twilio auth token for the sms job, split on purpose\nUPDATE integration_settings\n"
       f"   SET value = CONCAT('{ps[0]}', '{ps[1]}')\n WHERE name = 'twilio_auth_token';", s, k)

    k = "glpat-" + rs(B64URL, 20)
    ps = cut(k, 6, 12)
    s = longest(ps, skip_first=True)
    SP("concat", f"const GITLAB_TOKEN: &str = concat!(\"{ps[0]}\", \"{ps[1]}\", \"{ps[2]}\");", s, k)

    k = rs(HEX, 32)
    ps = cut(k, 20)
    s = longest(ps)
    SP("concat", F("""\
provider "datadog" {
  api_key = join("", ["@@a@@", "@@b@@"])
  app_key = var.datadog_app_key
}""", a=ps[0], b=ps[1]), s, k)

    k = "hf_" + rs(LETTERS, 34)
    ps = cut(k, 17)
    s = longest(ps)
    SP("concat", f"HF_TOKEN = (\n    \"{ps[0]}\"\n    \"{ps[1]}\"\n)\nlogin(token=HF_TOKEN)", s, k)

    k = rs(ALNUM, 40)
    ps = cut(k, 22)
    s = longest(ps)
    SP("concat", f"# .env\nCOHERE_KEY_PART1={ps[0]}\nCOHERE_KEY_PART2={ps[1]}\n\n# settings.py\n"
       "COHERE_API_KEY = os.environ['COHERE_KEY_PART1'] + os.environ['COHERE_KEY_PART2']", s, k)

    # ---- one value over two lines
    k = "sk-ant-api03-" + rs(B64URL, 93) + "AA"
    ps = cut(k, 60)
    s = longest(ps)
    SP("lines", f"[10:42] Tomás: here's the key for the eval harness, Slack wrapped it:\n{ps[0]}\n{ps[1]}\n[10:43] Tomás: delete after copying pls", s, k)

    k = f"SG.{rs(B64URL, 22)}.{rs(B64URL, 43)}"
    ps = cut(k, 41)
    s = longest(ps)
    SP("lines", f"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
       f"Hi Ana, the new SendGrid key for the newsletter tool is {ps[0]}=\n{ps[1]} , please rotate the old one.", s, k)

    k = "dop_v1_" + rs(HEX, 64)
    ps = cut(k, 38)
    s = longest(ps)
    SP("lines", f"doctl auth init --context prod \\\n  --access-token {ps[0]}\\\n{ps[1]}", s, k)

    k = "ATATT3xFfGF0" + rs(B64URL, 171) + "=" + rs(HEXU, 8)
    ps = cut(k, 80, 80)
    s = longest(ps, skip_first=True)
    SP("lines", f"JIRA_TOKEN=\n{ps[0]}\n{ps[1]}\n{ps[2]}\n(copied from the terminal, 80 columns)", s, k)

    bban = "37040044" + digits(10, "0")
    ib = iban_spaced(iban("DE", bban))
    line1, line2 = ib[:14], ib[15:]
    SP("lines", f"Sehr geehrte Damen und Herren,\nbitte erstatten Sie den Betrag auf mein Konto\nIBAN {line1}\n{line2}\n"
       "bei der Commerzbank.\nMit freundlichen Grüßen\nPetra Hoffmann", line2, ib, "de", seps=" ")
    CHECKS.append((CASES[-1]["id"], "iban", ib))

    # ---- separators inserted inside one run
    kid, k = "AKIA" + rs(UPNUM, 16), rs(B64, 40)
    spaced = " ".join(k[i:i + 4] for i in range(0, 40, 4))
    SP("spaced", f"bot keeps deleting it so spaces added, remove them:\nid {kid}\nsecret {spaced}", spaced, k, seps=" ")

    k = "ghp_" + rs(ALNUM, 36)
    spaced = " ".join(k)
    SP("spaced", f"github token (spelled out so the scanner doesn't eat it): {spaced}", spaced, k, seps=" ")

    p = pw_strong(14, syms="!#%*-_+=")
    spaced = " ".join(p)
    SP("spaced", f"Dictating the BIOS supervisor password for the lab PCs, letter by letter: {spaced}", spaced, p, seps=" ")

    k = "xoxp-" + digits(12, "123456789") + "-" + digits(12, "123456789") + "-" + digits(13, "123456789") + "-" + rs(HEX, 32)
    spaced = " ".join(k[i:i + 8] for i in range(0, len(k), 8))
    SP("spaced", f"Slack user token with spaces every 8 chars (Slack revokes tokens pasted whole): {spaced}", spaced, k, seps=" ")

    # ---- "part 1 / part 2" in chat
    k = "sk_live_51" + rs(ALNUM, 97)
    ps = cut(k, 54)
    s = longest(ps)
    SP("chat", f"[09:14] ops-bot: Stripe key part 1/2: {ps[0]}\n[09:14] ops-bot: part 2/2: {ps[1]}\n[09:15] Kim: got it, thx", s, k)

    k = rs(ALNUM, 30)
    ps = cut(k, 16)
    s = longest(ps)
    SP("chat", f"王工：AccessKey Secret 分两段发，第一段：{ps[0]}\n王工：第二段：{ps[1]}\n李工：收到，已配置到 OSS 上传服务。", s, k, "zh")

    p = pw_strong(18)
    ps = cut(p, 9)
    s = longest(ps)
    SP("chat", f"山田：管理画面のパスワード、前半は {ps[0]} です\n山田：後半は {ps[1]} です（つなげて入力してください）\n佐藤：了解です", s, p, "ja")

    p = pw_strong(16)
    ps = cut(p, 8)
    s = longest(ps)
    SP("chat", f"비밀번호 앞부분: {ps[0]}\n뒷부분: {ps[1]}\n붙여서 입력하시면 됩니다.", s, p, "ko")

    k = "sq0csp-" + rs(B64URL, 43)
    ps = cut(k, 27)
    s = longest(ps)
    SP("chat", f"Te mando el secreto de Square en dos partes.\nPrimera parte: {ps[0]}\nSegunda parte: {ps[1]}", s, k, "es")

    k = "glpat-" + rs(B64URL, 20)
    ps = cut(k, 6)
    s = longest(ps, skip_first=True)
    SP("chat", f"Teil 1 vom Deploy-Token ist das Präfix {ps[0]}, Teil 2 ist {ps[1]} – einfach zusammensetzen.", s, k, "de")

    p = pw_strong(20)
    ps = cut(p, 10)
    SP("chat", f"first half of the vpn password is {ps[0]}, I'll read you the rest over the phone", ps[0], p)

    c = card("4", 16)
    g = grp(c, [4, 4, 4, 4])
    first, last = g[:14], g[15:]
    SP("chat", f"[21:03] Jenny: card for the hotel, first 12: {first}\n[21:04] Jenny: last four {last}, exp 02/28", first, g, seps=" ")
    CHECKS.append((CASES[-1]["id"], "luhn", c))


# ================================================================ 6. benign look-alikes

def rbytes(n):
    return bytes(R.randrange(256) for _ in range(n))


def b64(data):
    return base64.b64encode(data).decode()


def isbn13(prefix):
    body = prefix + rs(DG, 12 - len(prefix))
    c = (10 - sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body)) % 10) % 10
    return body + str(c)


def isbn10():
    body = rs(DG, 9)
    c = (11 - sum(int(d) * (10 - i) for i, d in enumerate(body)) % 11) % 11
    return body + ("X" if c == 10 else str(c))


def benign():
    # ---- commit hashes
    lines = [f"{rs(HEX, 7)} {m}" for m in [
        "Fix off-by-one in pagination (#1289)", "Bump axios from 1.6.7 to 1.6.8", "Add retry to S3 upload",
        "Revert \"Enable HTTP/3 on edge\"", "docs: clarify rate limits"]]
    B("commit_hash", "$ git log --oneline -5\n" + "\n".join(lines))
    B("commit_hash", f"Fixed in {rs(HEX, 40)}, it will ship with 2.4.1 next Tuesday.")
    B("commit_hash", f"See https://github.com/tidewater/api/commit/{rs(HEX, 40)} for the change that broke the migration.")
    B("commit_hash", f"$ git cherry-pick {rs(HEX, 7)}..{rs(HEX, 7)}\n[release/3.2 {rs(HEX, 7)}] Handle empty cart in checkout")
    B("commit_hash", f"Fetching the repository\n  git -c protocol.version=2 fetch --depth=1 origin +{rs(HEX, 40)}:refs/remotes/origin/main\n"
      f"Checking out the ref\n  git checkout --progress --force -B main refs/remotes/origin/main\nHEAD is now at {rs(HEX, 7)} Merge pull request #812")
    B("commit_hash", f"$ git bisect good\n{rs(HEX, 40)} is the first bad commit\ncommit {rs(HEX, 40)}\nDate:   Thu May 2 14:11:09 2024 +0200\n\n    Switch JSON encoder to orjson")
    B("commit_hash", f"$ git rev-parse HEAD\n{rs(HEX, 40)}")
    B("commit_hash", f"这个 bug 是 {rs(HEX, 7)} 引入的，回滚到 {rs(HEX, 7)} 之后就正常了。", "zh")
    B("commit_hash", f"{rs(HEX, 10)} のコミットからビルドが失敗しています。原因は依存関係の更新だと思います。", "ja")
    h = rs(HEX, 7)
    B("commit_hash", f"$ git submodule status\n {rs(HEX, 33)}{h} vendor/libyaml (0.2.5-3-g{h})\n {rs(HEX, 40)} vendor/zlib (v1.3.1)")
    B("commit_hash", f"This reverts commit {rs(HEX, 40)}.\n\nThe new cache key caused a thundering herd on deploy.")
    B("commit_hash", F('''"node_modules/internal-ui": {
  "version": "4.2.0",
  "resolved": "git+ssh://git@github.com/tidewater/internal-ui.git#@@h@@",
  "license": "UNLICENSED"
}''', h=rs(HEX, 40)))
    B("commit_hash", f"changeset:   4821:{rs(HEX, 12)}\nbranch:      stable\ntag:         tip\nsummary:     fix build on aarch64")
    B("commit_hash", f"Der Commit {rs(HEX, 7)} hat die Migration kaputt gemacht, siehe Revert {rs(HEX, 7)}.", "de")
    B("commit_hash", f"ARG GIT_SHA={rs(HEX, 40)}\nLABEL org.opencontainers.image.revision=$GIT_SHA")

    # ---- request, trace and correlation ids
    B("request_id", f"HTTP/1.1 502 Bad Gateway\nContent-Type: application/json\nX-Request-Id: {uuid4()}\n\n{{\"error\":\"upstream timeout\"}}")
    B("request_id", f"traceparent: 00-{rs(HEX, 32)}-{rs(HEX, 16)}-01\ntracestate: congo=t61rcWkgMzE")
    B("request_id", f"REPORT RequestId: {uuid4()}\tDuration: 12.31 ms\tBilled Duration: 13 ms\tMemory Size: 256 MB\tMax Memory Used: 88 MB")
    B("request_id", F('{"error": {"type": "invalid_request_error", "message": "No such invoice"}, "request_id": "req_@@r@@"}', r=rs(ALNUM, 14)))
    B("request_id", f"ts=2024-05-14T09:12:44Z level=error msg=\"db timeout\" trace_id={rs(HEX, 32)} span_id={rs(HEX, 16)} route=/v1/orders")
    B("request_id", f"INSERT INTO jobs (id, kind, status) VALUES ('{uuid4()}', 'thumbnail', 'queued');")
    B("request_id", f"metadata:\n  name: web-7d9f8c6b5-x2kqp\n  namespace: shop\n  uid: {uuid4()}\n  resourceVersion: \"{digits(8, '1')}\"")
    B("request_id", f"请求失败，请求ID：{uuid4()}，请把这个 ID 发给技术支持排查。", "zh")
    B("request_id", f"エラーが発生しました（エラーID: {uuid4()}）。時間をおいて再度お試しください。", "ja")
    B("request_id", f"Se produjo un error inesperado. ID de correlación: {uuid4()}", "es")
    B("request_id", f"Sentry: TypeError: Cannot read properties of undefined (reading 'id')\nEvent ID: {rs(HEX, 32)}")
    B("request_id", f"x-ms-request-id: {uuid4()}\nx-ms-version: 2021-08-06\nDate: Tue, 14 May 2024 09:12:44 GMT")
    B("request_id", f"Error 1020: Access denied\nRay ID: {rs(HEX, 16)} • 2024-05-14 09:12:44 UTC\nPerformance & security by Cloudflare")
    B("request_id", f"Slow span in checkout, see http://jaeger.internal:16686/trace/{rs(HEX, 16)}")

    # ---- checksums and digests
    B("checksum", f"$ sha256sum dist/*\n{rs(HEX, 64)}  dist/app-2.4.1-linux-amd64.tar.gz\n{rs(HEX, 64)}  dist/app-2.4.1-darwin-arm64.tar.gz")
    B("checksum", f"MD5 (KnowHub-Setup-1.9.0.dmg) = {rs(HEX, 32)}")
    B("checksum", F('''"node_modules/lodash": {
  "version": "4.17.21",
  "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",
  "integrity": "sha512-@@i@@"
}''', i=b64(rbytes(64))))
    B("checksum", f"requests==2.31.0 \\\n    --hash=sha256:{rs(HEX, 64)} \\\n    --hash=sha256:{rs(HEX, 64)}")
    B("checksum", f"FROM postgres:16.3@sha256:{rs(HEX, 64)}")
    B("checksum", f"golang.org/x/net v0.24.0 h1:{b64(rbytes(32))}\ngolang.org/x/net v0.24.0/go.mod h1:{b64(rbytes(32))}")
    B("checksum", f"[[package]]\nname = \"serde\"\nversion = \"1.0.201\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"{rs(HEX, 64)}\"")
    B("checksum", f"<script src=\"https://cdn.jsdelivr.net/npm/alpinejs@3.13.10/dist/cdn.min.js\"\n        integrity=\"sha384-{b64(rbytes(48))}\" crossorigin=\"anonymous\"></script>")
    B("checksum", f"HTTP/2 304\netag: W/\"{rs(HEX, 8)}-{rs(HEX, 27)}\"\ncache-control: max-age=600")
    B("checksum", f"firmware.bin: 1048576 bytes, crc32 {rs(HEX, 8)}, build 2024-05-14")
    B("checksum", f"下载完成后请校验文件完整性：\nSHA256：{rs(HEX, 64)}\n如不一致请重新下载。", "zh")
    B("checksum", f"version https://git-lfs.github.com/spec/v1\noid sha256:{rs(HEX, 64)}\nsize {digits(8, '123')}")
    B("checksum", "Certificate fingerprints:\n  SHA1: " + ":".join(rs(HEXU, 2) for _ in range(20))
      + "\n  SHA256: " + ":".join(rs(HEXU, 2) for _ in range(32)))
    B("checksum", f"Prüfsumme (SHA-256) der ISO-Datei: {rs(HEX, 64)}", "de")

    # ---- version strings
    B("version_string", f"Released 2.14.0-rc.1+build.{digits(4, '123')}: see CHANGELOG.md for breaking changes.")
    B("version_string", "$ python3 --version\nPython 3.12.3\n$ pip --version\npip 24.0 from /usr/lib/python3/dist-packages/pip (python 3.12)")
    B("version_string", "$ uname -r\n6.5.0-27-generic")
    B("version_string", "Build number: UQ1A.240205.004\nAndroid security update: February 5, 2024")
    B("version_string", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.91 Safari/537.36")
    B("version_string", "implementation 'org.springframework.boot:spring-boot-starter-web:3.2.5'")
    B("version_string", f"require golang.org/x/exp v0.0.0-20240506185415-{rs(HEX, 12)}")
    B("version_string", "OS Name: Microsoft Windows 11 Pro\nOS Version: 10.0.22631 N/A Build 22631.3447")
    B("version_string", "升级到 v3.8.2 之后这个问题就没有了，3.7.x 的版本都有这个内存泄漏。", "zh")
    B("version_string", "iOS 17.4.1 (21E236) にアップデートしてからアプリが起動しません。", "ja")
    B("version_string", "$ dpkg -l git | tail -1\nii  git  1:2.43.0-1ubuntu7.1  amd64  fast, scalable, distributed revision control system")
    B("version_string", F('{"dependencies": {"react": "^18.2.0", "react-dom": "^18.2.0", "next": "14.2.3"}}'))

    # ---- example and placeholder keys
    B("placeholder_key", "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
      "# values from the AWS documentation; use your own")
    B("placeholder_key", "OPENAI_API_KEY=sk-...\nOPENAI_ORG_ID=org-...")
    B("placeholder_key", F('{\n  "api_key": "<your-api-key>",\n  "endpoint": "https://api.example.com/v1"\n}'))
    B("placeholder_key", "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx  # replace with your live key")
    B("placeholder_key", "export GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")
    B("placeholder_key", "      - run: npm publish --access public\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}")
    B("placeholder_key", "database:\n  user: app\n  password: \"********\"   # masked by `config show`")
    B("placeholder_key", "curl https://api.example.com/v2/search?q=test&key=YOUR_API_KEY_HERE")
    B("placeholder_key", "GET /v1/me HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer <token>")
    B("placeholder_key", F('{"mapbox": {"accessToken": "REPLACE_ME"}}'))
    B("placeholder_key", f"API keys\nName            Key                 Created\nci-deploy       sk-proj-...{rs(ALNUM, 4)}      2024-03-02\nnotebook        sk-proj-...{rs(ALNUM, 4)}      2024-04-18")
    B("placeholder_key", "配置示例：\naccessKeyId: 你的AccessKey ID\naccessKeySecret: 你的AccessKey Secret\nregion: oss-cn-hangzhou", "zh")
    B("placeholder_key", "APIキー: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx（ご自身のキーに置き換えてください）", "ja")
    B("placeholder_key", "Example from jwt.io:\neyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
    B("placeholder_key", "2024-05-14 09:12:44 INFO auth: login ok user=svc-sync token=[REDACTED] scopes=read")
    B("placeholder_key", "Access key ID: AKIA****************  (shown once at creation)")
    B("placeholder_key", "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME")
    B("placeholder_key", "# .env.example\nAPI_KEY=발급받은_키를_입력하세요\nAPI_SECRET=", "ko")

    # ---- order, ticket and reference numbers
    B("order_ticket_number", f"Your order #{digits(7, '123456789')} has shipped and should arrive in 3-5 business days.")
    B("order_ticket_number", f"See INFRA-{digits(4, '123')} and INFRA-{digits(4, '123')}; both are blocked on the VPC peering.")
    B("order_ticket_number", f"Order {digits(3, '1')}-{digits(7)}-{digits(7)} was cancelled because the item is out of stock.")
    B("order_ticket_number", f"Request #{digits(6, '1234')} has been solved. Reply to this email to reopen it.")
    B("order_ticket_number", f"订单号：2024{digits(14)}\n订单状态：已发货\n预计送达：5月16日", "zh")
    B("order_ticket_number", f"ご注文番号：{digits(3)}-{digits(7)}\nご注文ありがとうございました。発送準備が整い次第ご連絡いたします。", "ja")
    B("order_ticket_number", f"Invoice INV-2024-{digits(5)} is due on 31 May 2024. Amount: EUR 1,250.00")
    B("order_ticket_number", f"RMA-{digits(8, '123')} approved: ship the faulty unit back within 14 days.")
    B("order_ticket_number", f"PO 4500{digits(6)} / line 10 / material 100-{digits(4)}: goods receipt posted")
    B("order_ticket_number", f"INC00{digits(5, '123')} - P2 - Payment API latency - assigned to SRE on call")
    B("order_ticket_number", f"Ihre Bestellnummer lautet 30{digits(8)}. Bitte geben Sie diese bei Rückfragen an.", "de")
    B("order_ticket_number", f"Número de pedido: {digits(9, '123456789')}. Estado: en reparto.", "es")
    B("order_ticket_number", f"주문번호 2024{digits(10)} 상품이 출고되었습니다.", "ko")
    B("order_ticket_number", f"Closing as duplicate of #{digits(4, '123')}; the fix is tracked there.")

    # ---- ISBNs (valid check digits)
    for text_fmt, prefix, lang, fmt in [
            ("M. Hale, Practical Stream Processing, 2nd ed., 2021, ISBN {v}", "9781", None, [3, 1, 4, 4, 1]),
            ("参考书目：《分布式系统实践（第2版）》，ISBN {v}", "9787", "zh", [3, 1, 3, 5, 1]),
            ("参考文献：『はじめての型システム』、ISBN{v}", "9784", "ja", [3, 1, 4, 4, 1]),
            ("Literatur: Einführung in die Informatik, 5. Auflage, ISBN {v}", "9783", "de", [3, 1, 3, 5, 1]),
            ("@book{{ward19,\n  title = {{Notes on Compiler Construction}},\n  isbn  = {{{v}}}\n}}", "9780", None, [3, 1, 3, 5, 1]),
            ("Bibliografía: ISBN {v} (edición de bolsillo)", "9788", "es", [3, 2, 3, 4, 1])]:
        v = grp(isbn13(prefix), fmt, "-")
        B("isbn", text_fmt.format(v=v), lang, ("isbn13", v))
    v = isbn10()
    B("isbn", f"Old edition (1994), ISBN-10 {v[0]}-{v[1:4]}-{v[4:9]}-{v[9]}", check=("isbn10", v))
    v = isbn13("97911")
    B("isbn", f"ISBN-13: {v}\nPages: 412\nLanguage: English", check=("isbn13", v))

    # ---- timestamps and durations
    B("timestamp", F('{"id": 48213, "status": "done", "created_at": @@t@@, "updated_at": @@u@@}',
                     t=str(R.randint(1700000000, 1719999999)), u=str(R.randint(1720000000, 1729999999))))
    B("timestamp", f"[perf] render took 41ms at {R.randint(1700000000000, 1729999999999)}")
    B("timestamp", "Last backup: 2024-05-14T03:00:07.412+02:00 (took 00:14:52)")
    B("timestamp", "Date: Tue, 14 May 2024 09:00:00 +0000\nSubject: [ci] nightly build passed")
    B("timestamp", "127.0.0.1 - - [14/May/2024:09:00:01 +0000] \"GET /healthz HTTP/1.1\" 200 2 \"-\" \"kube-probe/1.29\"")
    B("timestamp", "# runs at 03:15 on weekdays\n15 3 * * 1-5 /usr/local/bin/rotate-logs --keep 14")
    B("timestamp", "会议时间：2024年5月14日（周二）14:00—15:30，地点：3号会议室", "zh")
    B("timestamp", "申請期限：令和6年5月31日（金）17時まで", "ja")
    B("timestamp", " 09:14:02 up 12 days,  3:41,  2 users,  load average: 0.42, 0.37, 0.31")
    B("timestamp", f"LastWriteTime (FILETIME): {R.randint(133500000000000000, 133600000000000000)}")

    # ---- IP addresses and ports
    B("ip_port", "Listening on http://0.0.0.0:8080 (press CTRL+C to quit)")
    B("ip_port", "upstream php_fpm {\n    server 127.0.0.1:9000;\n    keepalive 16;\n}")
    B("ip_port", "The examples use 203.0.113.10 and 198.51.100.7, which are reserved for documentation (RFC 5737).")
    B("ip_port", "Create three subnets in 10.0.0.0/16: 10.0.1.0/24, 10.0.2.0/24 and 10.0.3.0/24.")
    B("ip_port", "curl -v https://[2001:db8::1]:443/ -> connection refused")
    B("ip_port", "$ ss -tlnp\nState  Recv-Q Send-Q Local Address:Port  Peer Address:Port\nLISTEN 0      4096   127.0.0.1:5432      0.0.0.0:*\nLISTEN 0      511    0.0.0.0:80          0.0.0.0:*")
    B("ip_port", "127.0.0.1   localhost\n::1         localhost ip6-localhost ip6-loopback")
    B("ip_port", "$ ping -c 2 192.168.1.1\n64 bytes from 192.168.1.1: icmp_seq=1 ttl=64 time=0.512 ms\n64 bytes from 192.168.1.1: icmp_seq=2 ttl=64 time=0.498 ms")
    B("ip_port", "    ports:\n      - \"5432:5432\"\n      - \"127.0.0.1:6379:6379\"")
    B("ip_port", "启动失败：端口 3306 已被占用，请检查是否有其他 MySQL 实例在运行。", "zh")
    B("ip_port", "scrape_configs:\n  - job_name: prometheus\n    static_configs:\n      - targets: ['localhost:9090']")
    B("ip_port", "Die FRITZ!Box ist im Heimnetz unter 192.168.178.1 oder http://fritz.box erreichbar.", "de")

    # ---- the word password, no value
    B("password_word", "Forgot your password? Click \"Reset password\" on the sign-in page and we'll email you a link.")
    B("password_word", "import os\n\npassword = os.environ[\"DB_PASSWORD\"]\nconn = psycopg.connect(host=host, user=user, password=password)")
    B("password_word", "database:\n  host: ${DB_HOST}\n  user: ${DB_USER}\n  password: ${DB_PASSWORD}")
    B("password_word", "    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n    secrets:\n      - db_password")
    B("password_word", "        env:\n          - name: DB_PASSWORD\n            valueFrom:\n              secretKeyRef:\n                name: app-db\n                key: password")
    B("password_word", "$ mysql -u root -p -h 127.0.0.1\nEnter password:\nWelcome to the MySQL monitor.  Commands end with ; or \\g.")
    B("password_word", "redis-cli -h \"$REDIS_HOST\" -a \"$REDIS_PASSWORD\" --no-auth-warning PING")
    B("password_word", "from getpass import getpass\n\npassword = getpass(\"Password: \")\nclient.login(username, password)")
    B("password_word", "read -r -s -p \"Password: \" PASSWORD; echo\nsshpass -e ssh \"$HOST\"  # SSHPASS is exported by the caller")
    B("password_word", "PASSWORD_MIN_LENGTH = 12\nPASSWORD_REQUIRE_SYMBOL = True\nPASSWORD_HISTORY = 5")
    B("password_word", "<label for=\"pw\">Password</label>\n<input id=\"pw\" type=\"password\" name=\"password\" autocomplete=\"current-password\" required>")
    B("password_word", "ALTER TABLE users ADD COLUMN password_hash TEXT NOT NULL DEFAULT '';\nALTER TABLE users ADD COLUMN password_changed_at TIMESTAMPTZ;")
    B("password_word", F('{"username": "svc-report", "password": null, "auth": "kerberos"}'))
    B("password_word", "echo \"$REGISTRY_TOKEN\" | docker login ghcr.io -u \"$GITHUB_ACTOR\" --password-stdin")
    B("password_word", "Passwort vergessen? Über „Passwort zurücksetzen“ erhalten Sie einen Link per E-Mail.", "de")
    B("password_word", "Contraseña incorrecta. Te quedan 2 intentos antes de que se bloquee la cuenta.", "es")
    B("password_word", "Неверный логин или пароль. Попробуйте ещё раз или восстановите пароль.", "ru")
    B("password_word", "Votre mot de passe doit contenir au moins 12 caractères, dont une majuscule et un chiffre.", "fr")
    B("password_word", "PASSWORD_RE = re.compile(r\"^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[^\\w\\s]).{12,}$\")")
    B("password_word", "spring.datasource.password=${SPRING_DATASOURCE_PASSWORD}")
    B("password_word", "ansible_become_pass: \"{{ vault_become_pass }}\"")
    B("password_word", "2024-05-14 09:12:44 UTC [2817] FATAL:  password authentication failed for user \"app\"")
    B("password_word", "# /etc/ssh/sshd_config\nPasswordAuthentication no\nPermitRootLogin prohibit-password")

    # ---- connection strings with no password in them
    B("dsn_no_password", "$ psql postgresql://app@db.internal:5432/app   # auth via ~/.pgpass")
    B("dsn_no_password", "MONGO_URL=mongodb://mongo1:27017,mongo2:27017,mongo3:27017/?replicaSet=rs0")
    B("dsn_no_password", "REDIS_URL=redis://localhost:6379/0")
    B("dsn_no_password", "spring.datasource.url=jdbc:postgresql://localhost:5432/test")
    B("dsn_no_password", "\"ConnectionStrings\": { \"Default\": \"Server=localhost;Database=App;Trusted_Connection=True;TrustServerCertificate=True\" }")
    B("dsn_no_password", "SQLALCHEMY_DATABASE_URI = \"sqlite:///./app.db\"")
    B("dsn_no_password", "CELERY_BROKER_URL=amqp://rabbitmq:5672//")
    B("dsn_no_password", "DATABASE_URL=postgres://${PGUSER}:${PGPASSWORD}@${PGHOST}:5432/app")

    # ---- hex colours
    B("hex_colour", ":root {\n  --brand: #1e90ff;\n  --brand-dark: #0b5ed7;\n  --text: #0f172a;\n  --danger: #e11d48;\n}")
    B("hex_colour", "colors: {\n  primary: { 50: '#eff6ff', 500: '#3b82f6', 900: '#1e3a8a' },\n  accent: '#f59e0b',\n}")
    B("hex_colour", "<color name=\"purple_500\">#FF6200EE</color>\n<color name=\"teal_200\">#FF03DAC5</color>")
    B("hex_colour", F('{"color": {"bg": {"value": "#@@a@@"}, "fg": {"value": "#@@b@@"}, "border": {"value": "#@@c@@"}}}',
                      a=rs(HEX, 6), b=rs(HEX, 6), c=rs(HEX, 6)))
    B("hex_colour", "Use #0f172a for body text and #64748b for captions; never put #ef4444 on #f97316.")
    B("hex_colour", "<svg viewBox=\"0 0 24 24\"><path fill=\"#e11d48\" d=\"M12 21.35l-1.45-1.32C5.4 15.36 2 12.28 2 8.5\"/></svg>")
    B("hex_colour", "品牌规范：主色 #FF4D4F，辅助色 #1677FF，背景色 #F5F5F5。", "zh")
    B("hex_colour", "[colors]\n" + "\n".join(f"color{i} = #{rs(HEX, 6)}" for i in range(8)))

    # ---- base64 images
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00\x1f\xf3\xffa" + rbytes(60)
    B("base64_image", f".icon-check {{\n  background-image: url(\"data:image/png;base64,{b64(png)}\");\n}}")
    B("base64_image", "<img alt=\"\" width=\"1\" height=\"1\" src=\"data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7\">")
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#3b82f6"/></svg>'
    B("base64_image", f"![status](data:image/svg+xml;base64,{b64(svg)})")
    jpg = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + rbytes(72)
    B("base64_image", F('{"id": 77, "thumbnail": "data:image/jpeg;base64,@@j@@"}', j=b64(jpg)))
    webp = b"RIFF" + rbytes(4) + b"WEBPVP8 " + rbytes(48)
    B("base64_image", f"<link rel=\"icon\" href=\"data:image/webp;base64,{b64(webp)}\">")
    body = b64(png + rbytes(90))
    B("base64_image", "--b1_5f0e\nContent-Type: image/png; name=\"logo.png\"\nContent-Transfer-Encoding: base64\nContent-ID: <logo>\n\n"
      + "\n".join(body[i:i + 76] for i in range(0, len(body), 76)) + "\n--b1_5f0e--")

    # ---- lorem and filler text
    B("lorem", "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.")
    B("lorem", "这是一段占位文字，用于展示排版效果。正式内容上线前请替换。这是一段占位文字，用于展示排版效果。", "zh")
    B("lorem", "あのイーハトーヴォのすきとおった風、夏でも底に冷たさをもつ青いそら。（ダミーテキスト）", "ja")
    B("lorem", "가나다라마바사 아자차카타파하. 이 문장은 레이아웃 확인용 더미 텍스트입니다.", "ko")
    B("lorem", "Franz jagt im komplett verwahrlosten Taxi quer durch Bayern. (Blindtext für die Schriftprobe)", "de")

    # ---- CJK text that mentions passwords, accounts or card numbers without a value
    B("cjk_account_word", "温馨提示：请勿向任何人透露您的密码和短信验证码，客服不会向您索要密码。", "zh")
    B("cjk_account_word", "您的账号因多次输入错误密码已被临时冻结，请 30 分钟后再试或联系客服。", "zh")
    B("cjk_account_word", "忘记密码？点击“找回密码”，通过绑定的手机号或邮箱重置。", "zh")
    B("cjk_account_word", "请输入6位数字支付密码", "zh")
    B("cjk_account_word", "报销单填写说明：收款人姓名、开户行、银行卡号三项必填，卡号请勿填写信用卡。", "zh")
    B("cjk_account_word", "密碼錯誤，請重新輸入。連續錯誤五次帳號將被鎖定。", "zh-Hant")
    B("cjk_account_word", "パスワードは8文字以上で、英字と数字を両方含めてください。", "ja")
    B("cjk_account_word", "アカウントがロックされました。しばらくしてから再度お試しください。", "ja")
    B("cjk_account_word", "비밀번호는 영문, 숫자, 특수문자를 포함하여 8자 이상이어야 합니다.", "ko")
    B("cjk_account_word", "환불받으실 계좌번호와 예금주를 입력해 주세요.", "ko")
    B("cjk_account_word", "# 密码从环境变量读取，不要写死在代码里\npassword = os.getenv(\"DB_PASSWORD\")", "zh")
    B("cjk_account_word", "导出字段：用户名、账号、注册时间（密码为加密存储，不在导出范围内）", "zh")

    # ---- maths and code with key-like words but no secret
    B("code_no_secret", "Textbook RSA: p = 61, q = 53, n = 3233, φ(n) = 3120, e = 17, d = 2753; encrypt m = 65: c = 65^17 mod 3233 = 2790.")
    B("code_no_secret", "import secrets\n\nsecret = secrets.token_hex(32)  # generated at startup, never logged")
    B("code_no_secret", "api_key = request.headers.get(\"X-API-Key\")\nif not api_key or not verify(api_key):\n    abort(401)")
    B("code_no_secret", "Diffie-Hellman toy example: p = 23, g = 5; Alice picks a = 6, so A = 5^6 mod 23 = 8.")
    B("code_no_secret", "def djb2(s):\n    h = 5381\n    for c in s:\n        h = ((h << 5) + h + ord(c)) & 0xFFFFFFFF\n    return h")
    B("code_no_secret", "mac = hmac.new(load_signing_key(), body, hashlib.sha256).hexdigest()\nif not hmac.compare_digest(mac, request.headers[\"X-Signature\"]):\n    raise Forbidden()")
    B("code_no_secret", "A 128-bit key has 2^128 = 340282366920938463463374607431768211456 possible values.")
    B("code_no_secret", "token := os.Getenv(\"API_TOKEN\")\nif token == \"\" {\n\tlog.Fatal(\"API_TOKEN is not set\")\n}")

    # ---- long numbers that are not phone, card or account numbers
    v = isbn13("40")
    B("number_not_phone", f"Artikel: Kugelschreiber blau, 10er-Pack\nEAN: {v}\nPreis: 4,99 €", "de", ("ean13", v))
    v = isbn13("69")
    B("number_not_phone", f"商品条码：{v}\n规格：500ml×12瓶", "zh", ("ean13", v))
    B("number_not_phone", "Population (2023 estimate): 1,411,750,000; annual growth -0.1 %.")
    B("number_not_phone", "Giá bán: 12.990.000₫ (đã gồm VAT). Bảo hành 12 tháng.", "vi")
    B("number_not_phone", "Brandenburger Tor: 52.516275, 13.377704")
    B("number_not_phone", f"Build 20240514.{R.randint(1, 9)} passed all 1,482 tests in 6m 12s.")
    B("number_not_phone", f"Message ID {digits(19, '1')} was deleted by a moderator.")
    B("number_not_phone", "本月销售额 13,800,000 元，同比增长 12.4%。", "zh")
    B("number_not_phone", "US Patent 10,123,456 B2 describes a similar caching scheme.")
    B("number_not_phone", "π ≈ 3.14159265358979323846, e ≈ 2.71828182845904523536")
    B("number_not_phone", "| region | requests | bytes |\n|---|---:|---:|\n| eu-west-1 | 4812077713 | 918273645501 |\n| us-east-1 | 7730019284 | 1204958371120 |")
    B("number_not_phone", "2024年度の売上高は 1,234,567,890 円でした。", "ja")
    B("number_not_phone", f"Serial number: {rs(UPNUM, 12)}\nWarranty: expired")

    # ---- bank formats and masked numbers
    B("bank_format", "A German IBAN has 22 characters: DEkk bbbb bbbb cccc cccc cc (kk = check digits, b = bank code, c = account).")
    B("bank_format", "Deutsche Bank's BIC is DEUTDEFF; for a branch add three characters, e.g. DEUTDEFF500.")
    B("bank_format", "Payment method: Visa •••• 4242 (expires 08/27)")
    B("bank_format", "Your card ending in 1234 was charged $12.99 for your monthly subscription.")
    B("bank_format", "Visa numbers start with 4; Mastercard uses 51-55 and 2221-2720; American Express 34 and 37.")
    B("bank_format", "An ABA routing number has 9 digits; the checksum uses the weights 3, 7, 1 repeated.")
    B("bank_format", "| country | IBAN length |\n|---|---:|\n| DE | 22 |\n| FR | 27 |\n| GB | 22 |\n| NL | 18 |\n| ES | 24 |")
    B("bank_format", "银行卡号一般为16到19位数字，开头6位为发卡行识别码（BIN）。", "zh")
    B("bank_format", "振込先の口座番号（7桁）と口座名義（カナ）を入力してください。", "ja")
    B("bank_format", "IBAN: ____ ____ ____ ____ ____ __\nBIC: ___________\nKontoinhaber: ________________", "de")

    # ---- public emergency and service short numbers
    B("service_short_number", "In an emergency call 112 anywhere in the EU, or 911 in the US and Canada.")
    B("service_short_number", "火警 119，急救 120，报警 110，交通事故 122。", "zh")
    B("service_short_number", "事件・事故は110番、火事・救急は119番へ。", "ja")
    B("service_short_number", "범죄 신고는 112, 화재·구급은 119로 전화하세요.", "ko")
    B("service_short_number", "Call 999 in an emergency, or 111 for urgent medical help that is not life-threatening.")
    B("service_short_number", "Ärztlicher Bereitschaftsdienst: 116117 (bundesweit, kostenlos).", "de")


# ================================================================ checks and output

def validate():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for c in CASES:
        assert c["kind"] in ("secret", "benign"), c["id"]
        assert c["id"].startswith("s-" if c["kind"] == "secret" else "b-"), c["id"]
        assert c["id"][2:].rsplit("-", 1)[0] == c["category"], c["id"]
        if c["kind"] == "secret":
            assert c["family"] in FAMILIES, c["id"]
            assert c.get("secret") and c["secret"] in c["text"], c["id"]
        else:
            assert c["family"] == "benign", c["id"]
            assert "secret" not in c, c["id"]
        if "lang" in c:
            assert c["lang"] in LANGS, (c["id"], c["lang"])
        assert set(c) <= {"id", "kind", "category", "family", "text", "secret", "lang"}, c["id"]
    for cid, alg, value in CHECKS:
        assert VALIDATORS[alg](value), (cid, alg, value)


def main():
    provider_keys()
    phones()
    bank()
    passwords()
    splits()
    benign()
    validate()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "blind6.jsonl")
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for c in CASES:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    n_sec = sum(c["kind"] == "secret" for c in CASES)
    print(f"wrote {len(CASES)} cases ({n_sec} secrets, {len(CASES) - n_sec} benign), "
          f"{len(CHECKS)} check-digit values re-verified -> {out}")


if __name__ == "__main__":
    main()
