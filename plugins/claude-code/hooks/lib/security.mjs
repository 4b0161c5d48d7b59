// GENERATED from plugins/openclaw/src/security.ts and src/secret-rules.ts (itself generated from
// rules/secrets.json) by plugins/claude-code/scripts/sync-security.mjs.
// Do not edit: change the TypeScript source and run `node scripts/sync-security.mjs`.
// (test/parity.test.mjs fails when this copy is stale.)
// Privacy and prompt-safety helpers: secret/PII redaction, prompt-injection detection and
// escaping. How KnowHub records are shown to a model lives in format.ts.
//
// Design rule: these functions must not corrupt ordinary technical text. Every pattern is
// anchored so that URLs, package specs (pkg@1.2.3), semver, UUIDs, hashes, dates, ports and
// code such as `password: string` pass through untouched. Judgement calls are documented next
// to each rule and in README.md ("Privacy").
// GENERATED from rules/secrets.json by plugins/openclaw/scripts/sync-rules.mjs. Do not edit:
// change the rule file and run `node scripts/sync-rules.mjs` (test/secret-rules.test.ts fails
// when this copy is stale).
//
// KnowHub's secret and personal-data rules, read by the server (crates/knowhub-core/src/redact.rs,
// embedded at build time) and by both plugins (plugins/openclaw/src/secret-rules.ts is generated
// from this file by plugins/openclaw/scripts/sync-rules.mjs). The hand-written rules in redact.rs and
// security.ts run around these in two stages: 'secrets' after the assignment and connection-string
// rules, 'personal' before the national-id, card, IP and phone rules.
// Entries with source 'gitleaks' are converted from gitleaks' config/gitleaks.toml
// (https://github.com/gitleaks/gitleaks, MIT licence, copyright (c) 2019 Zachary Rice, reproduced in
// 'license' below) by scripts/import-gitleaks-rules.py; entries with source 'knowhub' are our own.
//
// Patterns are the dialect both Rust's regex crate and JavaScript (no u flag) read alike: no look-
// around, back-references or inline flags; \d and \w are written out ([0-9], [A-Za-z0-9_]); \b is an
// ASCII word boundary. ignore_case and multiline are flags of the rule. A match replaces its capture
// group `group` (0 or absent: the whole match) with `replace`, unless the captured text is a
// placeholder (${X}, <x>, {{x}}, %X%, [REDACTED]), is below `entropy` (Shannon bits per character),
// lacks a `require`d character class (digit, letter, upper, lower, mixed = letters with digits or
// three classes, secret_value = not code, an environment reference or a type name), contains a stop
// word, or fails its `validate` check digit (cn_id, hkid, tw_id, jp_mynumber, kr_rrn, us_ssn, us_itin,
// ca_sin, mx_curp, br_cpf, br_cnpj, in_aadhaar, uk_nino, es_dni, fr_nir, nl_bsn, it_cf, de_steuer_id,
// de_ausweis, pl_pesel, se_pnr, fi_hetu, dk_cpr, no_fnr, be_nrn, at_svnr, ch_ahv, ie_pps, pt_nif,
// sg_nric, mrz, iban, base64_userpass). A rule with `keywords` only runs on text that contains one of
// them (ASCII letters compared in lower case). Scanning resumes after the whole match.
//
// Rules with source "gitleaks" (commit b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b) are used under this licence:
//
// MIT License
//
// Copyright (c) 2019 Zachary Rice
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
// SOFTWARE.
export const SECRET_RULES = [
    {
        "id": "netrc-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b(?:machine[ \\t]+[^\\s]+|default)(?:\\s+(?:login|account)[ \\t]+[^\\s]+)*\\s+password[ \\t]+([^\\s]+)",
        "group": 1,
        "keywords": [
            "password"
        ],
        "require": [
            "secret_value"
        ]
    },
    {
        "id": "pgpass-line",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "^([A-Za-z0-9.\\-*]{1,253}):([0-9]{1,5}|\\*):([^\\s:]+):([^\\s:]+):([^\\s]+)$",
        "group": 5,
        "multiline": true
    },
    {
        "id": "redis-cli-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bredis-cli\\b[^\\n|;&]{0,200}?[ \\t]-a[ \\t]+[\\\"']?([^\\s\\\"']+)",
        "group": 1,
        "keywords": [
            "redis-cli"
        ]
    },
    {
        "id": "redis-config-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b(?:requirepass|masterauth|REDISCLI_AUTH)[ \\t]*[ \\t=:][ \\t]*[\\\"']?([^\\s\\\"']{4,})",
        "group": 1,
        "require": [
            "secret_value"
        ],
        "keywords": [
            "requirepass",
            "masterauth",
            "rediscli_auth"
        ]
    },
    {
        "id": "go-dsn-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b([A-Za-z0-9_.\\-]{1,64}):([^\\s:@/\\\"'`]{1,128})@(?:tcp6?|udp|unix)\\(",
        "group": 2
    },
    {
        "id": "dsn-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[\\s\\\"'=(,])([A-Za-z0-9_.\\-]{1,64}):([^\\s:@/\\\"'`]{1,128})@[A-Za-z0-9.\\-]+:[0-9]{2,5}(?:/|[^A-Za-z0-9_]|$)",
        "group": 2
    },
    {
        "id": "docker-config-auth",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\\"auth\\\"[ \\t]*:[ \\t]*\\\"([A-Za-z0-9+/=_\\-]{8,})\\\"",
        "group": 1,
        "validate": "base64_userpass",
        "keywords": [
            "\"auth\""
        ]
    },
    {
        "id": "docker-config-token",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\\"(?:identitytoken|registrytoken)\\\"[ \\t]*:[ \\t]*\\\"([^\\\"\\s]{8,})\\\"",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "identitytoken",
            "registrytoken"
        ]
    },
    {
        "id": "aws-secret-key-context",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[AWS_SECRET]",
        "pattern": "(?:aws|amazon|secret[ _\\-]?(?:access[ _\\-]?)?key)[^\\n]{0,80}?[^A-Za-z0-9/+=]([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)",
        "group": 1,
        "ignore_case": true,
        "entropy": 4,
        "require": [
            "upper",
            "lower",
            "digit"
        ],
        "keywords": [
            "aws",
            "amazon",
            "secret"
        ]
    },
    {
        "category": "api_key",
        "id": "aws-sts-session-token",
        "keywords": [
            "iqojb3jpz2lu",
            "fwogzxivyxdz"
        ],
        "pattern": "(?:^|[^A-Za-z0-9/+=])((?:IQoJb3JpZ2lu|FwoGZXIvYXdz)[A-Za-z0-9/+=]{80,})",
        "group": 1,
        "replace": "[AWS_SECRET]",
        "source": "knowhub",
        "stage": "secrets"
    },
    {
        "id": "telegram-bot-token",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "(?:^|[^A-Za-z0-9_:]|/bot)([0-9]{8,10}:[A-Za-z0-9_\\-]{35})(?:[^A-Za-z0-9_\\-]|$)",
        "group": 1,
        "entropy": 3.5,
        "require": [
            "upper",
            "lower"
        ]
    },
    {
        "id": "google-oauth-client-secret",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\bGOCSPX-[A-Za-z0-9_\\-]{28}",
        "keywords": [
            "gocspx-"
        ]
    },
    {
        "id": "session-cookie",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])([A-Za-z0-9_.\\-]{0,40}(?:sess|session|sessid|sessionid|session_id|session_key|sid))=[\\\"']?([^\\s;,'\\\"&]{16,})",
        "ignore_case": true,
        "group": 2,
        "keywords": [
            "sess",
            "sid"
        ],
        "entropy": 3,
        "require": [
            "mixed"
        ]
    },
    {
        "id": "cookie-header-value",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:\\bcookie[\\\"']?[ \\t]*[:=][ \\t]*[\\\"']?|;[ \\t]*)([A-Za-z0-9_.\\-]{1,64})=([^\\s;,'\\\"]{16,})",
        "ignore_case": true,
        "group": 2,
        "keywords": [
            "cookie"
        ],
        "entropy": 3.3,
        "require": [
            "mixed"
        ]
    },
    {
        "id": "dockerhub-token",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(dckr_(?:pat|oat)_[A-Za-z0-9_\\-]{20,})",
        "group": 1,
        "keywords": [
            "dckr_"
        ]
    },
    {
        "id": "vault-token",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(hv[sbr]\\.[A-Za-z0-9_\\-]{24,})",
        "group": 1,
        "keywords": [
            "hvs.",
            "hvb.",
            "hvr."
        ],
        "entropy": 3.5
    },
    {
        "id": "vault-legacy-token",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "vault[^\\n]{0,60}?[^A-Za-z0-9_.]([sb]\\.[A-Za-z0-9]{24})(?:[^A-Za-z0-9_]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "vault"
        ],
        "entropy": 3.5,
        "require": [
            "mixed"
        ]
    },
    {
        "id": "atlassian-token-prefix",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(ATATT3[A-Za-z0-9_\\-=]{100,})",
        "group": 1,
        "keywords": [
            "atatt3"
        ],
        "entropy": 4
    },
    {
        "id": "azure-storage-key-context",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "(?:account[ _\\-]?key|storage[ _\\-]?(?:account[ _\\-]?)?key)[^\\n]{0,40}?[^A-Za-z0-9+/]([A-Za-z0-9+/]{86}==)(?:[^A-Za-z0-9+/=]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "key"
        ],
        "entropy": 4.5
    },
    {
        "id": "twilio-client-auth-token",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\bClient\\([ \\t]*[\\\"'](?:AC[0-9a-f]{32}|\\[API_KEY\\])[\\\"'][ \\t]*,[ \\t]*[\\\"']([0-9a-f]{32})[\\\"']",
        "group": 1,
        "keywords": [
            "client("
        ]
    },
    {
        "id": "kubeconfig-client-key",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bclient-key-data:[ \\t]*[\\\"']?([A-Za-z0-9+/=]{16,})",
        "group": 1,
        "keywords": [
            "client-key-data"
        ]
    },
    {
        "id": "login-password-flag",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b(?:sshpass|(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|az|cf)[ \\t]+(?:[a-z]+[ \\t]+)?login)\\b[^\\n|;&]{0,200}?[ \\t](?:-p[ \\t]*|--password(?:[ \\t]+|=))[\\\"']?([^\\s\\\"']+)",
        "group": 1,
        "keywords": [
            "sshpass",
            "login"
        ]
    },
    {
        "id": "env-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b([A-Z][A-Z0-9_]*(?:PASSWORD|PASSWD|PASSPHRASE|SSHPASS)|[A-Z][A-Z0-9]*_PWD)[ \\t]*=[ \\t]*[\\\"']?([^\\s\\\"'`;&|]+)",
        "group": 2,
        "keywords": [
            "password",
            "passwd",
            "passphrase",
            "sshpass",
            "_pwd"
        ],
        "require": [
            "secret_value"
        ]
    },
    {
        "id": "redis-prompt-auth",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])(?:[A-Za-z0-9.\\-]+:[0-9]{2,5}|redis)(?:\\[[0-9]+\\])?>[ \\t]*AUTH[ \\t]+(?:[^\\s]+[ \\t]+)?([^\\s]+)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "auth"
        ]
    },
    {
        "id": "pgpass-echo",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "[\\\"']([A-Za-z0-9.\\-*]{1,253}):([0-9]{1,5}|\\*):([^\\s:'\\\"]+):([^\\s:'\\\"]+):([^\\s'\\\"]+)[\\\"'][ \\t]*>>?[ \\t]*[^\\s]*pgpass",
        "group": 5,
        "keywords": [
            "pgpass"
        ]
    },
    {
        "id": "password-in-prose",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b(?:password|passwd|passphrase|pwd|secret|token|api[ _\\-]?key)(?:[ \\t]+(?:is|was|set to))?[ \\t]+[\\\"'`“]?([A-Za-z0-9!#$%&*+/<>?@^|~][A-Za-z0-9!#$%&*+./<>?@^_|~\\-]{7,63})(?:[^A-Za-z0-9!#$%&*+./<>?@^_|~\\-(\\[]|$)",
        "group": 1,
        "ignore_case": true,
        "entropy": 3,
        "require": [
            "mixed",
            "secret_value"
        ],
        "keywords": [
            "password",
            "passwd",
            "passphrase",
            "pwd",
            "secret",
            "token",
            "api"
        ]
    },
    {
        "id": "password-hash-crypt",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9$])\\$?((?:1|5|6|apr1|md5)\\$(?:rounds=[0-9]{1,9}\\$)?[./A-Za-z0-9]{1,16}\\$[./A-Za-z0-9]{22,86}|2[abxy]?\\$[0-9]{2}\\$[./A-Za-z0-9]{53}|(?:y|gy|7)\\$[./A-Za-z0-9]{1,64}\\$[./A-Za-z0-9]{1,86}\\$[./A-Za-z0-9]{43}|argon2(?:id|i|d)\\$v=[0-9]+\\$m=[0-9]+,t=[0-9]+,p=[0-9]+\\$[A-Za-z0-9+/.=]{8,}\\$[A-Za-z0-9+/.=]{16,}|pbkdf2_sha(?:1|256|512)\\$[0-9]{1,7}\\$[A-Za-z0-9./+]{4,}\\$[A-Za-z0-9./+=]{16,})",
        "group": 1,
        "keywords": [
            "$"
        ]
    },
    {
        "id": "tencent-secret-id",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(AKID[A-Za-z0-9]{32})\\b",
        "keywords": [
            "akid"
        ]
    },
    {
        "id": "app-key-assignment",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b((?:[A-Z][A-Z0-9]*_)*APP_KEY|secret_key_base|SECRET_KEY_BASE)[\\\"']?[ \\t]*[:=][ \\t]*[\\\"']?((?:base64:)?[A-Za-z0-9+/=_\\-]{20,})",
        "group": 2,
        "keywords": [
            "app_key",
            "secret_key_base"
        ],
        "entropy": 3,
        "require": [
            "mixed"
        ]
    },
    {
        "id": "wireguard-private-key",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:private[ _\\-]?key)[^\\n]{0,24}?[^A-Za-z0-9+/]([A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=)(?:[^A-Za-z0-9+/=]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "private"
        ]
    },
    {
        "id": "bitcoin-wif-context",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:importprivkey|\\bwif\\b|private[ _\\-]?key)[^\\n]{0,24}?[^A-Za-z0-9]([5KL][1-9A-HJ-NP-Za-km-z]{50,51})(?:[^A-Za-z0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "importprivkey",
            "wif",
            "private"
        ]
    },
    {
        "id": "password-in-prose-cjk",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:密码|密碼|口令|密钥|密鑰|秘钥|秘鑰|令牌|パスワード|パスフレーズ|暗証番号|비밀번호|암호)(?:[ \\t]*(?:是|为|為|は|는|은|:|：|=|＝|改成了?|改为|改為|换成了?|換成了?|设为|設為|设置为|設置為|变成了?|變成了?))?[ \\t]*[\\\"'`“「『【]?([A-Za-z0-9!#$%&*+/<>?@^|~][A-Za-z0-9!#$%&*+./<>?@^_|~\\-]{7,63})(?:[^A-Za-z0-9!#$%&*+./<>?@^_|~\\-(\\[]|$)",
        "group": 1,
        "entropy": 3,
        "require": [
            "mixed",
            "secret_value"
        ],
        "keywords": [
            "密码",
            "密碼",
            "口令",
            "密钥",
            "密鑰",
            "秘钥",
            "秘鑰",
            "令牌",
            "パスワード",
            "暗証番号",
            "비밀번호",
            "암호",
            "パスフレーズ"
        ]
    },
    {
        "id": "password-in-prose-multilingual",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:\\b(?:password|passwort|kennwort|passwd|passphrase|pwd|wachtwoord|contrase(?:ñ|n)a|senha|has(?:ł|l)o|heslo|jelsz(?:ó|o)|salasana|l(?:ö|o)senord|passord|adgangskode|(?:ş|s)ifre|secret|token|api[ _\\-]?key|clave)|mot[ \\t ]+de[ \\t ]+passe|\\bmdp\\b|parola[ \\t ]+d'ordine|parolă|пароль|κωδικός)(?:[ \\t ]+[^\\s\\\"`“”«»:=：]{1,30}){0,6}?(?:[ \\t ]*(?:[:=：]|—|–)|[ \\t ]+(?:is|was|are|is now|set to|changed to|ist|lautet|lautete|war|est|était|es|era|è|é|és|är|er|jest|je)[ \\t ]+)[ \\t ]*[\\\"'`“”«»‘„]?[ \\t ]*([A-Za-z0-9!#$%&*+/<>?@^|~][A-Za-z0-9!#$%&*+./<>?@^_|~\\-]{7,63})(?:[^A-Za-z0-9!#$%&*+./<>?@^_|~\\-(\\[]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "password",
            "passwort",
            "kennwort",
            "passwd",
            "passphrase",
            "pwd",
            "wachtwoord",
            "contraseña",
            "contrasena",
            "senha",
            "hasło",
            "haslo",
            "heslo",
            "jelszó",
            "jelszo",
            "salasana",
            "lösenord",
            "losenord",
            "passord",
            "adgangskode",
            "şifre",
            "sifre",
            "secret",
            "token",
            "api",
            "clave",
            "mot de passe",
            "mdp",
            "parola d'ordine",
            "parolă",
            "пароль",
            "Пароль",
            "κωδικός"
        ],
        "entropy": 2.5,
        "require": [
            "mixed",
            "secret_value"
        ]
    },
    {
        "id": "password-in-prose-arrow",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:\\b(?:password|passwort|kennwort|passwd|passphrase|pwd|wachtwoord|contrase(?:ñ|n)a|senha|has(?:ł|l)o|heslo|jelsz(?:ó|o)|salasana|l(?:ö|o)senord|passord|adgangskode|(?:ş|s)ifre|secret|token|api[ _\\-]?key|clave)|mot[ \\t ]+de[ \\t ]+passe|\\bmdp\\b|parola[ \\t ]+d'ordine|parolă|пароль|κωδικός)(?:[ \\t ]+[^\\s\\\"`“”«»:=：]{1,30}){0,6}?(?:[ \\t ]*(?:->|=>|→))[ \\t ]*[\\\"'`“”«»‘„]?[ \\t ]*([A-Za-z0-9!#$%&*+/<>?@^|~][A-Za-z0-9!#$%&*+./<>?@^_|~\\-]{7,63})(?:[^A-Za-z0-9!#$%&*+./<>?@^_|~\\-(\\[]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "password",
            "passwort",
            "kennwort",
            "passwd",
            "passphrase",
            "pwd",
            "wachtwoord",
            "contraseña",
            "contrasena",
            "senha",
            "hasło",
            "haslo",
            "heslo",
            "jelszó",
            "jelszo",
            "salasana",
            "lösenord",
            "losenord",
            "passord",
            "adgangskode",
            "şifre",
            "sifre",
            "secret",
            "token",
            "api",
            "clave",
            "mot de passe",
            "mdp",
            "parola d'ordine",
            "parolă",
            "пароль",
            "Пароль",
            "κωδικός"
        ],
        "entropy": 2.5,
        "require": [
            "digit",
            "mixed",
            "secret_value"
        ]
    },
    {
        "id": "login-user-slash-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b(?:logins?|credentials?|creds|user(?:name)?[ \\t]*/[ \\t]*pass(?:word)?)(?:(?:[ \\t]+[^\\s\\\"`:=：/]{1,30}){0,4}?(?:[ \\t]*[:=：]|[ \\t]+(?:is|are)))?[ \\t]+[\\\"'`]?[A-Za-z0-9_.@\\\\\\-]{1,64}[ \\t]*/[ \\t]*[\\\"'`]?([A-Za-z0-9!#$%&*+/<>?@^|~][A-Za-z0-9!#$%&*+./<>?@^_|~\\-]{7,63})(?:[^A-Za-z0-9!#$%&*+./<>?@^_|~\\-(\\[]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "login",
            "credential",
            "creds",
            "user"
        ],
        "entropy": 2.5,
        "require": [
            "mixed",
            "secret_value"
        ]
    },
    {
        "id": "cli-ldap-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])ldap(?:search|modify|add|delete|whoami|passwd|compare|modrdn|exop|url)(?:[ \\t][^\\n|;&]{0,300}?)?[ \\t]-w[ \\t]*[\\\"']?([^\\s\\\"'`\\-…][^\\s\\\"'`]{2,})",
        "group": 1,
        "keywords": [
            "ldap"
        ]
    },
    {
        "id": "cli-smb-user-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])(?:smbclient|rpcclient|smbcacls|smbget|smbtree|smbcquotas|smbmap|net|winexe|crackmapexec|nxc)(?:[ \\t][^\\n|;&]{0,300}?)?[ \\t](?:-U|--user(?:name)?)(?:[ \\t]+|=)[\\\"']?[^\\s\\\"'%]{1,128}%([^\\s\\\"'`\\-…][^\\s\\\"'`]{2,})",
        "group": 1,
        "keywords": [
            "%"
        ]
    },
    {
        "id": "cli-htpasswd-batch",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])htpasswd[ \\t]+(?:-[A-Za-z]+[ \\t]+)*?-[A-Za-z]*b[A-Za-z]*[ \\t]+(?:-[A-Za-z]+[ \\t]+)*(?:[^\\s|;&>\\-][^\\s|;&>]*[ \\t]+)?[^\\s|;&>]+[ \\t]+[\\\"']?([^\\s\\\"'`|;&>…][^\\s\\\"'`|;&>]{2,})",
        "group": 1,
        "keywords": [
            "htpasswd"
        ]
    },
    {
        "id": "cli-openssl-pass-arg",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[ \\t])-pass(?:in|out|word)?[ \\t]+[\\\"']?pass:([^\\s\\\"'`\\-…][^\\s\\\"'`]{2,})",
        "group": 1,
        "keywords": [
            "pass:"
        ]
    },
    {
        "id": "cli-keystore-pass",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[ \\t])-(?:src|dest)(?:store|key)pass[ \\t]+[\\\"']?([^\\s\\\"'`\\-…][^\\s\\\"'`]{2,})",
        "group": 1,
        "keywords": [
            "storepass",
            "keypass"
        ]
    },
    {
        "id": "cli-password-option-upper-p",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])(?:zip|unzip|zipcloak|sqlcmd|bcp|isql|osql|ipmitool|mosquitto_(?:pub|sub|rr))(?:[ \\t][^\\n|;&]{0,300}?)?[ \\t]-P[ \\t]*[\\\"']?([^\\s\\\"'`\\-…][^\\s\\\"'`]{2,})",
        "group": 1,
        "keywords": [
            "zip",
            "sqlcmd",
            "bcp",
            "isql",
            "osql",
            "ipmitool",
            "mosquitto"
        ]
    },
    {
        "id": "cli-password-option-p",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])(?:mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|mongostat|mongotop|mongofiles|rdesktop|evil-winrm|smbmap|crackmapexec|nxc|cqlsh|rabbitmqadmin|psexec\\.py|wmiexec\\.py|smbexec\\.py|secretsdump\\.py)(?:[ \\t][^\\n|;&]{0,300}?)?[ \\t]-p[ \\t]+[\\\"']?([^\\s\\\"'`\\-…][^\\s\\\"'`]{2,})",
        "group": 1,
        "keywords": [
            "mongo",
            "rdesktop",
            "winrm",
            "smbmap",
            "crackmapexec",
            "nxc",
            "cqlsh",
            "rabbitmqadmin",
            ".py"
        ]
    },
    {
        "id": "cli-password-attached-p",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])(?:7z|7za|7zr|7zz|rar|unrar|mysqlimport|mysqlcheck|mysqlshow|mysqlslap|mysqlpump|mariadb-admin|mariadb-import|mariadb-check|mariadb-show)(?:[ \\t][^\\n|;&]{0,300}?)?[ \\t]-p([^\\s\\\"'`\\-…][^\\s\\\"'`]{2,})",
        "group": 1,
        "keywords": [
            "7z",
            "rar",
            "mysql",
            "mariadb"
        ]
    },
    {
        "id": "cli-freerdp-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])(?:xfreerdp3?|wlfreerdp|sdl-freerdp3?)(?:[ \\t][^\\n|;&]{0,300}?)?[ \\t]/p:[\\\"']?([^\\s\\\"'`\\-…][^\\s\\\"'`]{2,})",
        "group": 1,
        "keywords": [
            "freerdp"
        ]
    },
    {
        "id": "cli-net-use-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bnet[ \\t]+use\\b[^\\n|;&]{0,300}?[ \\t]/u(?:ser)?:[^\\s]+[ \\t]+[\\\"']?([^\\s\\\"'`/*][^\\s\\\"'`]{3,})",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "net use"
        ]
    },
    {
        "id": "cli-net-use-password-first",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bnet[ \\t]+use[ \\t]+(?:[A-Za-z]:[ \\t]+|\\*[ \\t]+)?\\\\\\\\[^\\s]+[ \\t]+[\\\"']?([^\\s\\\"'`/*][^\\s\\\"'`]{3,})[\\\"']?[ \\t]+/u(?:ser)?:",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "net use"
        ]
    },
    {
        "id": "cli-oracle-user-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])(?:sqlplus|rman|expdp|impdp|sqlldr|dgmgrl)[ \\t]+(?:-[A-Za-z]+[ \\t]+|(?:target|catalog|auxiliary)[ \\t]+|userid=)*[\\\"']?[A-Za-z0-9_$#.]{1,64}/([^\\s@/\\\"'`]{4,})",
        "group": 1,
        "keywords": [
            "sqlplus",
            "rman",
            "expdp",
            "impdp",
            "sqlldr",
            "dgmgrl"
        ]
    },
    {
        "id": "cli-prefixed-password-option",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[ \\t])--(?:(?:http|ftp|proxy|db|database|admin|root|bind|ssh|sftp|smtp|mail|user|login|auth|keystore|truststore|store|key|master|rpc|api|web|ui|vnc|redis|mysql|postgres|pg|ldap|registry|repo|repository|remote|server|client|basic-auth|webdav|smb|mega|seafile|sql|imap|pop|jmx|broker|cluster|node|bootstrap|initial|default|source|target|src|dest|old|new)-pass(?:word|wd|phrase)?|passphrase)(?:[ \\t]+|=)[\\\"']?([^\\s\\\"'`\\-…][^\\s\\\"'`]{2,})",
        "group": 1,
        "keywords": [
            "pass"
        ],
        "require": [
            "secret_value"
        ]
    },
    {
        "id": "rclone-config-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\brclone[ \\t]+config[ \\t]+(?:create|update|password)\\b[^\\n|;&]{0,300}?[ \\t](?:pass|password)[ \\t=]+[\\\"']?([^\\s\\\"'`\\-…][^\\s\\\"'`]{2,})",
        "group": 1,
        "keywords": [
            "rclone"
        ]
    },
    {
        "id": "wpa-passphrase-command",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])wpa_passphrase[ \\t]+(?:\\\"[^\\\"\\n]*\\\"|'[^'\\n]*'|[^\\s]+)[ \\t]+[\\\"']?([^\\s\\\"'`\\-…][^\\s\\\"'`]{2,})",
        "group": 1,
        "keywords": [
            "wpa_passphrase"
        ]
    },
    {
        "id": "wpa-psk-quoted",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_])psk[ \\t]*=[ \\t]*\\\"([^\\\"\\n]{8,63})\\\"",
        "group": 1,
        "keywords": [
            "psk"
        ]
    },
    {
        "id": "wpa-psk-hex",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_])psk[ \\t]*=[ \\t]*([0-9a-fA-F]{64})(?:[^0-9a-fA-F]|$)",
        "group": 1,
        "keywords": [
            "psk"
        ]
    },
    {
        "id": "xml-password-element",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "<((?:[A-Za-z_][A-Za-z0-9_.\\-]*:)?[A-Za-z_.\\-]*(?:password|passwd|passphrase|secret|apikey|api-key|api_key|token))>[ \\t]*([^<\\s][^<\\n]{0,127}?)[ \\t]*</",
        "group": 2,
        "ignore_case": true,
        "keywords": [
            "pass",
            "secret",
            "token",
            "api"
        ],
        "require": [
            "secret_value"
        ]
    },
    {
        "id": "dotnet-add-key-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "<add[ \\t]+key[ \\t]*=[ \\t]*[\\\"']([^\\\"'\\n]*(?:password|passwd|pwd|secret|apikey|api_key|token|credential)[^\\\"'\\n]*)[\\\"'][ \\t]+value[ \\t]*=[ \\t]*[\\\"']([^\\\"'\\n]+)[\\\"']",
        "group": 2,
        "ignore_case": true,
        "keywords": [
            "<add"
        ],
        "require": [
            "secret_value"
        ]
    },
    {
        "id": "camelcase-password-key",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_])[\\\"']?([a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*(?:Password|Passwd|Passphrase|Pwd|Secret)|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*(?:Password|Passwd|Passphrase|Secret))[\\\"']?[ \\t]*[:=][ \\t]*[\\\"']?([^\\s\\\"',;`]{6,})",
        "group": 2,
        "keywords": [
            "password",
            "passwd",
            "passphrase",
            "pwd",
            "secret"
        ],
        "require": [
            "secret_value"
        ]
    },
    {
        "id": "password-in-prose-more-languages",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:m(?:ậ|a)t[ \\t ]+kh(?:ẩ|a)u|รหัสผ่าน|كلمة[ \\t ]+(?:المرور|السر)|رمز[ \\t ]+(?:عبور|المرور)|\\bkata[ \\t ]+sandi|\\bsandi\\b|(?:ş|s)ifre[a-zçğıöşü]{0,4}|has(?:ł|l)[a-ząęłóśźż]{0,3}|\\bparol[aă]\\b|\\blozink[a-z]{0,2}|\\bgeslo\\b|पासवर्ड|סיסמ(?:ה|א))(?:[ \\t ]*[^\\s\\\"`“”«»:=：]{1,30}){0,6}?(?:[ \\t ]*(?:[:=：]|—|–)|[ \\t ]*(?:là|คือ|هي|هو|adalah|ialah|to|jest|je|è|é|es|ist|lautet|est|är|er|on|है|היא|است|is|e)[ \\t ]+)[ \\t ]*[\\\"'`“”«»‘„]?[ \\t ]*([A-Za-z0-9!#$%&*+/<>?@^|~][A-Za-z0-9!#$%&*+./<>?@^_|~\\-]{7,63})(?:[^A-Za-z0-9!#$%&*+./<>?@^_|~\\-(\\[]|$)",
        "group": 1,
        "ignore_case": true,
        "entropy": 2.5,
        "require": [
            "mixed",
            "secret_value"
        ],
        "keywords": [
            "mật khẩu",
            "mat khau",
            "รหัสผ่าน",
            "كلمة",
            "رمز",
            "sandi",
            "şifre",
            "sifre",
            "hasł",
            "hasl",
            "parol",
            "lozink",
            "geslo",
            "पासवर्ड",
            "סיסמ"
        ]
    },
    {
        "id": "network-device-secret",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:\\bsnmp-server[ \\t]+community|\\bsnmp(?:walk|get|bulkwalk|bulkget|set|getnext|trap)\\b[^\\n]*?[ \\t]-c|\\bcommunity[ \\t]+string[ \\t]*[:=]?|\\b(?:password|secret)[ \\t]+[07]|\\bkey[ \\t]+[07]|\\bmessage-digest-key[ \\t]+[0-9]+[ \\t]+md5|\\bauthentication-key|\\bauth_pass|\\bpsksecret|\\bpre-shared-key|:[ \\t]*PSK)[ \\t]+[\\\"']?([^\\s\\\"';]{6,64})",
        "group": 1,
        "ignore_case": true,
        "require": [
            "mixed",
            "secret_value"
        ],
        "keywords": [
            "snmp",
            "community",
            "password",
            "secret",
            "key",
            "md5",
            "auth_pass",
            "psk",
            "pre-shared"
        ]
    },
    {
        "id": "wifi-qr-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bWIFI:[^\\n]*?;P:([^;\\n]{4,63});",
        "group": 1,
        "keywords": [
            "wifi:"
        ]
    },
    {
        "id": "sudo-stdin-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\becho[ \\t]+(?:-[ne]+[ \\t]+)?[\\\"']?([^\\s\\\"'|]{6,64})[\\\"']?[ \\t]*\\|[ \\t]*sudo\\b[^\\n|]*[ \\t]-[A-Za-z]*S\\b",
        "group": 1,
        "require": [
            "secret_value"
        ],
        "keywords": [
            "sudo"
        ]
    },
    {
        "id": "expect-send-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bexpect[ \\t]+(?:-[a-z]+[ \\t]+)?\\\"[^\\\"\\n]*(?:assword|assphrase|PIN|passcode)[^\\\"\\n]*\\\"\\s+send[ \\t]+(?:--[ \\t]+)?\\\"([^\\\"\\\\\\n]{4,64})",
        "group": 1,
        "require": [
            "secret_value"
        ],
        "keywords": [
            "expect"
        ]
    },
    {
        "id": "windows-net-user-password",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bnet[ \\t]+user[ \\t]+[^\\s/]+[ \\t]+([^\\s/*]{4,64})[ \\t]+/(?:add|domain|active)",
        "group": 1,
        "ignore_case": true,
        "require": [
            "secret_value"
        ],
        "keywords": [
            "net user"
        ]
    },
    {
        "id": "powershell-securestring",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "ConvertTo-SecureString[ \\t]+(?:-String[ \\t]+)?[\\\"']([^\\\"'\\n]{4,128})[\\\"'][^\\n]*-AsPlainText",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "convertto-securestring"
        ]
    },
    {
        "id": "cloud-cli-secret-option",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b(?:coscmd|obsutil|ossutil(?:64)?|qshell|bcecmd|tccli|aliyun|s3cmd|mc|rclone|minio)\\b[^\\n]*?[ \\t](?:-s|-k|-sk|--sk|--secret(?:[\\-_]?(?:access[\\-_]?)?key)?|--access[\\-_]?key[\\-_]?secret|--secret[\\-_]?id)[ =]([A-Za-z0-9+/=_\\-]{16,64})",
        "group": 1,
        "ignore_case": true,
        "entropy": 3,
        "require": [
            "mixed"
        ],
        "keywords": [
            "coscmd",
            "obsutil",
            "ossutil",
            "qshell",
            "bcecmd",
            "tccli",
            "aliyun",
            "s3cmd",
            "mc ",
            "rclone",
            "minio"
        ]
    },
    {
        "id": "qshell-account-secret",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bqshell[ \\t]+account[ \\t]+(?:-[a-z][ \\t]+)*[A-Za-z0-9_\\-]{16,64}[ \\t]+([A-Za-z0-9_\\-]{16,64})",
        "group": 1,
        "ignore_case": true,
        "require": [
            "mixed"
        ],
        "keywords": [
            "qshell"
        ]
    },
    {
        "id": "cli-secret-key-prompt",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bsecret[ \\t_\\-]?(?:access[ \\t_\\-]?)?key[^:\\n\\[]{0,20}\\[[^\\]\\n]*\\]:[ \\t]*([A-Za-z0-9+/=_\\-]{16,64})",
        "group": 1,
        "ignore_case": true,
        "entropy": 3,
        "require": [
            "mixed"
        ],
        "keywords": [
            "secret"
        ]
    },
    {
        "id": "yaml-block-scalar-secret",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b(?:password|passwd|passphrase|secret|token|api[_\\-]?key|private[_\\-]?key)[A-Za-z_\\-]*[ \\t]*:[ \\t]*[|>][\\-+]?[ \\t]*\\n[ \\t]+([^\\s]{6,128})",
        "group": 1,
        "ignore_case": true,
        "require": [
            "secret_value"
        ],
        "keywords": [
            "password",
            "passwd",
            "passphrase",
            "secret",
            "token",
            "api",
            "private"
        ]
    },
    {
        "id": "escaped-json-secret",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\\\\\\"(?:password|passwd|pass|pwd|secret|client_secret|token|access_token|refresh_token|api_?key)\\\\\\\"[ \\t]*:[ \\t]*\\\\\\\"([^\\\"\\\\\\n]{4,128})\\\\\\\"",
        "group": 1,
        "ignore_case": true,
        "require": [
            "secret_value"
        ],
        "keywords": [
            "password",
            "passwd",
            "pass",
            "pwd",
            "secret",
            "token",
            "api"
        ]
    },
    {
        "id": "php-define-secret",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bdefine\\([ \\t]*[\\\"'](?:[A-Z_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|_KEY|_SALT)[A-Z_]*)[\\\"'][ \\t]*,[ \\t]*[\\\"']([^\\\"'\\n]{4,128})[\\\"']",
        "group": 1,
        "require": [
            "secret_value"
        ],
        "keywords": [
            "define("
        ]
    },
    {
        "id": "subscript-assigned-secret",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\[[ \\t]*[\\\"'][A-Za-z_]*(?:SECRET|PASSWORD|PASSWD|TOKEN|API_KEY|PRIVATE_KEY)[A-Za-z_]*[\\\"'][ \\t]*\\][ \\t]*=[ \\t]*[\\\"']([^\\\"'\\n]{8,256})[\\\"']",
        "group": 1,
        "ignore_case": true,
        "entropy": 3,
        "require": [
            "secret_value"
        ],
        "keywords": [
            "secret",
            "password",
            "passwd",
            "token",
            "api_key",
            "private_key"
        ]
    },
    {
        "id": "api-key-header",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b(?:Ocp-Apim-Subscription-Key|(?:[A-Za-z0-9]+-)*(?:Key|Token|Secret)|apikey)[ \\t]*:[ \\t]*[\\\"']?([A-Za-z0-9_\\-]{16,128})",
        "group": 1,
        "ignore_case": true,
        "entropy": 3,
        "require": [
            "mixed"
        ],
        "keywords": [
            "key",
            "token",
            "secret"
        ],
        "veto": [
            "public",
            "sitekey",
            "site_key",
            "site-key",
            "fingerprint",
            "cache",
            "idempotency",
            "publishable",
            "ssh-",
            "sha256:",
            "pgp",
            "host key",
            "hostkey",
            "sort",
            "primary",
            "foreign",
            "partition",
            "ssh key",
            "signature"
        ]
    },
    {
        "id": "okta-ssws-header",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bSSWS[ \\t]+([A-Za-z0-9_\\-]{20,})",
        "group": 1,
        "keywords": [
            "ssws"
        ]
    },
    {
        "id": "query-string-key",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "[?&](?:appid|app_?key|api_?key|apikey|access_?key)=([A-Za-z0-9_\\-%.~]{16,256})",
        "group": 1,
        "ignore_case": true,
        "entropy": 3,
        "require": [
            "mixed"
        ],
        "keywords": [
            "appid",
            "appkey",
            "app_key",
            "api_key",
            "apikey",
            "access_key",
            "accesskey"
        ]
    },
    {
        "id": "sdk-client-literal-key",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b[A-Za-z_.]*(?:Client(?:V[0-9])?|Api|API|Dropbox|algoliasearch|Config|Credentials?|Auth|Signer)\\([^)\\n]*?[\\\"']([A-Za-z0-9_.\\-]{24,256})[\\\"']",
        "group": 1,
        "entropy": 3.5,
        "require": [
            "upper",
            "lower",
            "digit",
            "secret_value"
        ],
        "keywords": [
            "client",
            "api",
            "dropbox",
            "algoliasearch",
            "config",
            "credential",
            "auth",
            "signer"
        ]
    },
    {
        "id": "sdk-client-literal-hex",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b[A-Za-z_.]*(?:Client(?:V[0-9])?|Api|API|algoliasearch|Config|Credentials?|Auth|Signer)\\([ \\t]*[\\\"'][^\\\"'\\n]{1,64}[\\\"'][ \\t]*,[ \\t]*[\\\"']([0-9a-f]{32,64})[\\\"']",
        "group": 1,
        "entropy": 3,
        "require": [
            "digit",
            "lower"
        ],
        "keywords": [
            "client",
            "api",
            "algoliasearch",
            "config",
            "credential",
            "auth",
            "signer"
        ]
    },
    {
        "id": "asana-pat",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b([0-9]/[0-9]{13,19}:[0-9a-f]{32})\\b",
        "group": 1
    },
    {
        "id": "prefixed-token-generic",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "(?:^|[^A-Za-z0-9_\\-])([a-z][a-z0-9]{1,7}_(?:[a-z]{2,8}_)?[A-Za-z0-9]{32,128})(?:[^A-Za-z0-9_\\-]|$)",
        "group": 1,
        "entropy": 4,
        "require": [
            "upper",
            "lower",
            "digit"
        ],
        "stopwords": [
            "pk_",
            "phc_"
        ]
    },
    {
        "id": "secret-word-near-random",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:\\b(?:key|token|secret|password|passwd|credentials?|cle|jeton|secreto|clave|chave|senha|schl[üu]ssel|sleutel|chiave)\\b|\\bclé|ключ|токен|пароль|Ключ|Токен|Пароль|密钥|密鑰|秘钥|令牌|口令|密码|密碼|キー|トークン|パスワード|シークレット|키|토큰|비밀번호)(?:[^\\n]{0,60}?\\r?\\n)?[^\\n]{0,60}?(?:^|[^A-Za-z0-9+/_\\-.=$])([A-Za-z0-9][A-Za-z0-9+/_\\-.]{18,198}[A-Za-z0-9])(?:[^A-Za-z0-9+/_\\-.]|$)",
        "group": 1,
        "ignore_case": true,
        "entropy": 4,
        "require": [
            "upper",
            "lower",
            "digit",
            "secret_value",
            "random"
        ],
        "stopwords": [
            "pk_",
            "phc_"
        ],
        "keywords": [
            "key",
            "token",
            "secret",
            "password",
            "passwd",
            "credential",
            "clé",
            "cle",
            "jeton",
            "secreto",
            "clave",
            "chave",
            "senha",
            "schlüssel",
            "schlussel",
            "sleutel",
            "chiave",
            "ключ",
            "токен",
            "пароль",
            "Пароль",
            "密钥",
            "密鑰",
            "秘钥",
            "令牌",
            "口令",
            "密码",
            "密碼",
            "キー",
            "トークン",
            "パスワード",
            "シークレット",
            "키",
            "토큰",
            "비밀번호"
        ],
        "veto": [
            "public",
            "sitekey",
            "site_key",
            "site-key",
            "fingerprint",
            "cache",
            "idempotency",
            "publishable",
            "ssh-",
            "sha256:",
            "pgp",
            "host key",
            "hostkey",
            "sort",
            "primary",
            "foreign",
            "partition",
            "ssh key",
            "signature"
        ]
    },
    {
        "id": "secret-command-output",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|\\n)[ \\t]*[$#>%][ \\t][^\\n]*(?:password|passwd|secret|token)[^\\n]*\\r?\\n[ \\t]*([A-Za-z0-9!#$%&*+/=?@^_~.\\-]{8,128})[ \\t]*(?:\\r?\\n|$)",
        "group": 1,
        "ignore_case": true,
        "entropy": 3,
        "require": [
            "mixed",
            "secret_value"
        ],
        "keywords": [
            "password",
            "passwd",
            "secret",
            "token"
        ]
    },
    {
        "id": "sql-password-literal",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b(?:IDENTIFIED[ \\t]+(?:WITH[ \\t]+[A-Za-z0-9_]+[ \\t]+)?BY(?:[ \\t]+PASSWORD)?|(?:WITH|ENCRYPTED|UNENCRYPTED)[ \\t]+PASSWORD|SET[ \\t]+PASSWORD[^'\\n]{0,60}=[ \\t]*(?:PASSWORD[ \\t]*\\()?)[ \\t]*'([^'\\n]{4,128})'",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "identified",
            "password"
        ]
    },
    {
        "id": "uuid-key-prefixed",
        "source": "knowhub",
        "stage": "secrets",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b((?:sdk|mob)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\b",
        "group": 1,
        "keywords": [
            "sdk-",
            "mob-"
        ]
    },
    {
        "id": "uuid-secret-context",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b(?:token|api[ _\\-]?key|apikey|secret|auth|license[ _\\-]?key|access[ _\\-]?key|password)\\b[ \\t]*[:=]?[ \\t]*[\\\"'`]?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\b",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "token",
            "api",
            "key",
            "secret",
            "auth",
            "password"
        ]
    },
    {
        "id": "secret-key-in-prose",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\b(?:SK|AK[ /]?SK|secret[ _\\-]?(?:access[ _\\-]?)?key|app[ _\\-]?secret|client[ _\\-]?secret|access[ _\\-]?secret|api[ _\\-]?secret)\\b[ \\t]*(?:是|为|為|は|는|은|:|：|=|＝|is|was|:=)[ \\t]*[\\\"'`“「]?([A-Za-z0-9+/_\\-]{16,128})",
        "group": 1,
        "ignore_case": true,
        "entropy": 3.5,
        "require": [
            "mixed",
            "secret_value"
        ],
        "keywords": [
            "sk",
            "secret"
        ]
    },
    {
        "id": "named-key-assignment",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_])([$@]?(?:[A-Za-z0-9]+[_\\-])*(?:[A-Za-z0-9]*key|sk|pat)(?:[_\\-](?:part|p|half|piece)?[0-9a-c])?)[\\\"']?[ \\t]*[:=][ \\t]*[\\\"']?([A-Za-z0-9+/_\\-]{16,128})",
        "group": 2,
        "ignore_case": true,
        "entropy": 3.5,
        "require": [
            "upper",
            "lower",
            "digit",
            "secret_value",
            "random"
        ],
        "keywords": [
            "key",
            "sk",
            "pat"
        ],
        "stopwords": [
            "pk_",
            "phc_"
        ],
        "veto": [
            "public",
            "sitekey",
            "site_key",
            "site-key",
            "fingerprint",
            "cache",
            "idempotency",
            "publishable",
            "ssh-",
            "sha256:",
            "pgp",
            "host key",
            "hostkey",
            "sort",
            "primary",
            "foreign",
            "partition",
            "ssh key",
            "signature"
        ]
    },
    {
        "id": "mattermost-webhook-token",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "/hooks/([a-z0-9]{26})(?:[^A-Za-z0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "/hooks/"
        ]
    },
    {
        "id": "teams-webhook-url-token",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "webhook\\.office\\.com/webhookb2/([^\\s\\\"'<>]{20,})",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "webhookb2"
        ]
    },
    {
        "id": "zapier-catch-hook",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "hooks\\.zapier\\.com/hooks/catch/[0-9]+/([A-Za-z0-9]{5,})",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "zapier"
        ]
    },
    {
        "id": "ifttt-webhook-key",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "maker\\.ifttt\\.com/(?:trigger/[^/\\s]+/(?:json/)?with/)?key/([A-Za-z0-9_\\-]{16,})",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "ifttt"
        ]
    },
    {
        "id": "webhook-id-setting",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\bwebhook_id[ \\t]*[:=][ \\t]*[\\\"']?([A-Za-z0-9_\\-]{20,})",
        "group": 1,
        "ignore_case": true,
        "require": [
            "upper",
            "lower",
            "digit"
        ],
        "keywords": [
            "webhook_id"
        ]
    },
    {
        "id": "bitwarden-send-link",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "send\\.bitwarden\\.com/#([A-Za-z0-9_\\-/]{20,})",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "bitwarden"
        ]
    },
    {
        "id": "google-oauth-refresh-token",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:^|[^A-Za-z0-9_/])(1//0[A-Za-z0-9_\\-]{40,})",
        "group": 1,
        "keywords": [
            "1//0"
        ]
    },
    {
        "id": "private-key-hex-context",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:private[ \\t_\\-]?key|priv[ \\t_\\-]?key|秘密鍵|私钥|私鑰)[^0-9A-Za-z\\n]{0,12}(?:0x)?([0-9a-fA-F]{64})(?:[^0-9A-Za-z]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "private",
            "priv",
            "秘密鍵",
            "私钥",
            "私鑰"
        ]
    },
    {
        "id": "rails-master-key-file",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "master\\.key[^\\n]{0,80}\\n[ \\t]*([0-9a-f]{32})(?:[^0-9A-Za-z]|$)",
        "group": 1,
        "keywords": [
            "master.key"
        ]
    },
    {
        "id": "backup-codes-block",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:(?:recovery|backup|scratch|emergency|one-time)[ \\t_\\-]?codes?|恢复码|恢復碼|备用(?:验证)?码|備用(?:驗證)?碼|救援码|復原碼|リカバリーコード|バックアップコード|복구[ ]?코드|백업[ ]?코드)(?:[^\\n]{0,80}\\n[ \\t\\r\\n]*|[^\\n]{0,40}?[:：][ \\t]*)((?:[0-9a-z]{4,10}-[0-9a-z]{4,10}|[0-9]{6,10}|[0-9a-z]{8,10})(?:[ \\t\\r\\n,;、，；]+(?:[0-9a-z]{4,10}-[0-9a-z]{4,10}|[0-9]{6,10}|[0-9a-z]{8,10})){3,})(?:[^0-9A-Za-z\\-]|$)",
        "group": 1,
        "ignore_case": true,
        "require": [
            "digit"
        ],
        "keywords": [
            "recovery",
            "backup",
            "scratch",
            "emergency",
            "one-time",
            "恢复码",
            "恢復碼",
            "备用",
            "備用",
            "救援码",
            "復原碼",
            "コード",
            "코드"
        ]
    },
    {
        "id": "totp-setup-key-context",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "(?:totp|TOTP|Totp|otp|OTP|Otp|2fa|2FA|mfa|MFA|Mfa|two\\-factor|TWO\\-FACTOR|Two\\-factor|2\\-step|2\\-STEP|authenticator|AUTHENTICATOR|Authenticator|setup key|SETUP KEY|Setup key|二段階認証|2段階認証|設定キー|双因素|双重验证|两步验证|二次验证|兩步驟驗證|雙重驗證|2단계|이중 인증)[^\\n]{0,60}?[ \\t:：=（(]([A-Z2-7]{4}(?:[ ]?[A-Z2-7]{4}){3,7}(?:[A-Z2-7]{1,3})?|[a-z2-7]{4}(?:[ ]?[a-z2-7]{4}){3,7}(?:[a-z2-7]{1,3})?)(?:[^A-Za-z0-9]|$)",
        "group": 1,
        "require": [
            "digit"
        ],
        "keywords": [
            "totp",
            "otp",
            "2fa",
            "mfa",
            "two-factor",
            "2-step",
            "authenticator",
            "setup key",
            "二段階認証",
            "2段階認証",
            "設定キー",
            "双因素",
            "双重验证",
            "两步验证",
            "二次验证",
            "兩步驟驗證",
            "雙重驗證",
            "2단계",
            "이중 인증"
        ]
    },
    {
        "id": "address-zh",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "((?:[一-鿿々]{0,10}?(?:省|自治区|自治區|特别行政区|特別行政區|市|区|區|县|縣|镇|鎮|乡|鄉|香港|澳門|澳门|九龍|九龙|新界))[一-鿿々]{0,12}?(?:路|街|大道|道|巷|弄|胡同|里|村)(?:[一-鿿々]{0,6}?段)?(?:[ ]?[0-9０-９一二三四五六七八九十百零〇]{1,3}[ ]?(?:组|組|社|队|隊))?[ ]?[0-9０-９一二三四五六七八九十百零〇]{1,6}[ ]?(?:号|號|弄|巷)(?:[ ]?(?:[0-9０-９A-Za-z一二三四五六七八九十百零〇]{0,6}[ ]?(?:号院|號院|院|号楼|號樓|楼|樓|栋|棟|幢|座|单元|單元|室|层|層|号|號|弄|巷|F)|之[0-9０-９]{1,3}))*)(?:$|[^线綫機机位院楼樓栋棟幢座单單室层層之号號弄巷组組0-9０-９A-Za-z])",
        "group": 1,
        "keywords": [
            "号",
            "號"
        ]
    },
    {
        "id": "address-ja-chome",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "((?:〒[ ]?[0-9０-９]{3}[-－][0-9０-９]{4}[ 　]?)?(?:[一-鿿々ぁ-んァ-ヶー]{1,6}?(?:都|道|府|県))?[一-鿿々ぁ-んァ-ヶー]{1,10}?(?:市|区|町|村|郡)[一-鿿々ぁ-んァ-ヶー]{0,10}?[0-9０-９一二三四五六七八九十百零〇]{1,3}(?:丁目|番地|番)(?:[ ]?[0-9０-９]{1,4}(?:番地|番|号|[-－‐])?){0,3}(?:[ 　]?[一-鿿々ァ-ヶーA-Za-z]{2,16}[ 　]?[0-9０-９]{1,4}(?:号室|号|室)?)?)",
        "group": 1,
        "keywords": [
            "丁目",
            "番"
        ]
    },
    {
        "id": "address-ja-dashed",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "((?:〒[ ]?[0-9０-９]{3}[-－][0-9０-９]{4}[ 　]?)?[一-鿿々ぁ-んァ-ヶー]{1,6}?(?:都|道|府|県)[一-鿿々ぁ-んァ-ヶー]{1,10}?(?:市|区|町|村|郡)[一-鿿々ぁ-んァ-ヶー]{0,12}?[0-9０-９]{1,4}[-－‐][0-9０-９]{1,4}(?:[-－‐][0-9０-９]{1,4})?(?:[ 　]?[一-鿿々ァ-ヶーA-Za-z]{2,16}[ 　]?[0-9０-９]{1,4}(?:号室|号|室)?)?)",
        "group": 1,
        "keywords": [
            "都",
            "道",
            "府",
            "県"
        ]
    },
    {
        "id": "postcode-ja",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "(〒[ ]?[0-9０-９]{3}[-－][0-9０-９]{4})",
        "group": 1,
        "keywords": [
            "〒"
        ]
    },
    {
        "id": "address-ko",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "((?:[가-힣]{2,8}(?:특별시|광역시|특별자치시|특별자치도|도|시)[ ])[가-힣]{1,6}(?:구|군|시)[ ](?:[가-힣]{1,6}(?:동|읍|면)[ ])?(?:[가-힣0-9]{1,12}(?:로|길)[ ]?[0-9]{1,5}|[가-힣0-9]{1,8}(?:동|리|가)[ ]?[0-9]{1,5}(?:번지)?)(?:-[0-9]{1,5})?(?:(?:,[ ]?|[ ])(?:[가-힣A-Za-z]{1,12}[ ]?)?[0-9]{1,5}(?:동|호|층))*)",
        "group": 1,
        "keywords": [
            "로",
            "길",
            "동",
            "리",
            "가"
        ]
    },
    {
        "id": "address-ko-unit",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "([가-힣]{1,6}(?:구|군)[ ](?:[가-힣]{1,6}(?:동|읍|면)[ ])?[가-힣0-9]{2,12}(?:로|길)[ ]?[0-9]{1,5}(?:-[0-9]{1,5})?(?:,[ ]?|[ ])(?:[가-힣A-Za-z]{1,12}[ ]?)?[0-9]{1,5}(?:호|층)(?:[ ]?[0-9]{1,5}(?:호|층))?)",
        "group": 1,
        "keywords": [
            "호",
            "층"
        ]
    },
    {
        "id": "address-en-unit",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-/:#])((?:(?:Flat|Apt|Apartment|Unit|Suite)[ ][0-9][0-9A-Z]{0,4},?[ ])[0-9]{1,6}[A-Za-z]?(?:[/\\-][0-9]{1,5}[A-Za-z]?)?[ ](?:(?:N|S|E|W|NE|NW|SE|SW)\\.?[ ])?(?:[A-Z][A-Za-z'\\-]{0,30}\\.?[ ]){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Boulevard|Blvd|Lane|Ln|Way|Court|Ct|Place|Pl|Parkway|Pkwy|Terrace|Ter|Circle|Cir|Highway|Hwy|Close|Crescent|Cres|Gardens|Gdns|Grove|Square|Sq|Mews|Row|Walk|Trail|Trl|Loop|Pike|Alley|Quay|Esplanade|Parade|Pde|Broadway)\\b\\.?(?:[ ](?:N|S|E|W|NE|NW|SE|SW)\\b\\.?)?(?:(?:,[ ]?|[ ]{0,8}\\r?\\n[ ]{0,8})[A-Z][A-Za-z'.\\-]{1,30}(?:[ ][A-Z][A-Za-z'.\\-]{1,30}){0,3},?[ ](?:(?:[A-Z]{2,3}|[A-Z][a-z]{1,20})[ ]{1,2}[0-9]{4,5}(?:-[0-9]{4})?|[A-Z]{1,2}[0-9][A-Z0-9]?[ ][0-9][A-Z]{2}|[A-Z][0-9][A-Z][ ]?[0-9][A-Z][0-9]|[A-Z][0-9]{2}[ ]?[A-Z0-9]{4}))?|[0-9]{1,6}[A-Za-z]?(?:[/\\-][0-9]{1,5}[A-Za-z]?)?[ ](?:(?:N|S|E|W|NE|NW|SE|SW)\\.?[ ])?(?:[A-Z][A-Za-z'\\-]{0,30}\\.?[ ]){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Boulevard|Blvd|Lane|Ln|Way|Court|Ct|Place|Pl|Parkway|Pkwy|Terrace|Ter|Circle|Cir|Highway|Hwy|Close|Crescent|Cres|Gardens|Gdns|Grove|Square|Sq|Mews|Row|Walk|Trail|Trl|Loop|Pike|Alley|Quay|Esplanade|Parade|Pde|Broadway)\\b\\.?(?:[ ](?:N|S|E|W|NE|NW|SE|SW)\\b\\.?)?,?[ ](?:Apt|Apartment|Suite|Ste|Unit|Fl|Floor|Rm|Room|Flat|#)\\.?[ ]?#?[0-9][0-9A-Za-z\\-]{0,5}(?:(?:,[ ]?|[ ]{0,8}\\r?\\n[ ]{0,8})[A-Z][A-Za-z'.\\-]{1,30}(?:[ ][A-Z][A-Za-z'.\\-]{1,30}){0,3},?[ ](?:(?:[A-Z]{2,3}|[A-Z][a-z]{1,20})[ ]{1,2}[0-9]{4,5}(?:-[0-9]{4})?|[A-Z]{1,2}[0-9][A-Z0-9]?[ ][0-9][A-Z]{2}|[A-Z][0-9][A-Z][ ]?[0-9][A-Z][0-9]|[A-Z][0-9]{2}[ ]?[A-Z0-9]{4}))?)",
        "group": 1
    },
    {
        "id": "address-en-city",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-/:#])([0-9]{1,6}[A-Za-z]?(?:[/\\-][0-9]{1,5}[A-Za-z]?)?[ ](?:(?:N|S|E|W|NE|NW|SE|SW)\\.?[ ])?(?:[A-Z][A-Za-z'\\-]{0,30}\\.?[ ]){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Boulevard|Blvd|Lane|Ln|Way|Court|Ct|Place|Pl|Parkway|Pkwy|Terrace|Ter|Circle|Cir|Highway|Hwy|Close|Crescent|Cres|Gardens|Gdns|Grove|Square|Sq|Mews|Row|Walk|Trail|Trl|Loop|Pike|Alley|Quay|Esplanade|Parade|Pde|Broadway)\\b\\.?(?:[ ](?:N|S|E|W|NE|NW|SE|SW)\\b\\.?)?(?:,[ ]?|[ ]{0,8}\\r?\\n[ ]{0,8})[A-Z][A-Za-z'.\\-]{1,30}(?:[ ][A-Z][A-Za-z'.\\-]{1,30}){0,3},?[ ](?:(?:[A-Z]{2,3}|[A-Z][a-z]{1,20})[ ]{1,2}[0-9]{4,5}(?:-[0-9]{4})?|[A-Z]{1,2}[0-9][A-Z0-9]?[ ][0-9][A-Z]{2}|[A-Z][0-9][A-Z][ ]?[0-9][A-Z][0-9]|[A-Z][0-9]{2}[ ]?[A-Z0-9]{4}))",
        "group": 1
    },
    {
        "id": "address-en-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "(?:\\b(?:ship(?:ping)? to|deliver(?:y)? to|mail(?:ed)? (?:it )?to|post(?:ed)? (?:it )?to|send (?:it |them )?to|lives? at|living at|resides? at|moved to|address(?: is)?|addr)[:]?[ ]{0,4}(?:\\r?\\n[ ]{0,8})?)([0-9]{1,6}[A-Za-z]?(?:[/\\-][0-9]{1,5}[A-Za-z]?)?[ ](?:(?:N|S|E|W|NE|NW|SE|SW)\\.?[ ])?(?:[A-Z][A-Za-z'\\-]{0,30}\\.?[ ]){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Boulevard|Blvd|Lane|Ln|Way|Court|Ct|Place|Pl|Parkway|Pkwy|Terrace|Ter|Circle|Cir|Highway|Hwy|Close|Crescent|Cres|Gardens|Gdns|Grove|Square|Sq|Mews|Row|Walk|Trail|Trl|Loop|Pike|Alley|Quay|Esplanade|Parade|Pde|Broadway)\\b\\.?(?:[ ](?:N|S|E|W|NE|NW|SE|SW)\\b\\.?)?)",
        "group": 1
    },
    {
        "id": "address-po-box",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "\\b((?:P\\.[ ]?O\\.|PO|Post Office|Postfach|Apartado|Caixa Postal|Casilla)[ ]?(?:Box[ ])?[0-9]{1,6})\\b",
        "group": 1,
        "keywords": [
            "box",
            "postfach",
            "apartado",
            "caixa",
            "casilla"
        ]
    },
    {
        "id": "address-in-pin",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "\\b((?:Flat|House|H\\.[ ]?No\\.?|Plot|Door[ ]No\\.?|Flat[ ]No\\.?|#)[ ]?[0-9A-Z][0-9A-Z/\\-]{0,10},[^\\n]{5,100}?[ ,\\-][1-9][0-9]{2}[ ]?[0-9]{3})(?:[^0-9]|$)",
        "group": 1
    },
    {
        "id": "address-germanic",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "(?:^|[^A-Za-z0-9_])((?:[A-ZÄÖÜÅÆØ][a-zäöüßåæøé]{1,40}(?:straße|strasse|str\\.|gasse|allee|weg|damm|ufer|chaussee|steig|pfad|graben|straat|laan|plein|gracht|kade|dijk|singel|gatan|vägen|gränd|torget|gade|vej|veien|gata|katu|tie)|[A-ZÄÖÜÅÆØ][a-zäöüßåæøé\\-]{1,40}[ \\-](?:Straße|Strasse|Str\\.|Gasse|Allee|Chaussee))[ ]?[0-9]{1,4}[ ]?[a-zA-Z]?(?:[ ]?[-/][ ]?[0-9]{1,4}[a-z]?)?(?:,?[ ]?(?:[A-Z]{1,2}-)?(?:[0-9]{4,5}|[0-9]{4}[ ]?[A-Z]{2}|[0-9]{3}[ ][0-9]{2})[ ][A-ZÄÖÜÅÆØ][a-zäöüßåæøé\\-]{1,40}(?:[ ][A-ZÄÖÜÅÆØ][a-zäöüßåæøé\\-]{1,40})?)?)(?:$|[^0-9A-Za-z.]|\\.(?:$|[^0-9]))",
        "group": 1
    },
    {
        "id": "address-fr",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "(?:^|[^A-Za-z0-9_.])([0-9]{1,4}(?:[ ]?(?:bis|ter))?,?[ ](?:rue|Rue|avenue|Avenue|av\\.|Av\\.|boulevard|Boulevard|bd|Bd|place|Place|chemin|Chemin|allée|Allée|impasse|Impasse|quai|Quai|cours|Cours|route de|Route de|route du|Route du|square|Square)[ ](?:(?:de la|de l'|du|des|de|d'|la|le|les|l')[ ]?)?[A-ZÀ-Ý][A-Za-zÀ-ÿ'\\-]{1,40}(?:[ ](?:de |du |des |la |le |l')?[A-ZÀ-Ý][A-Za-zÀ-ÿ'\\-]{1,40}){0,3}(?:,?[ ]?[0-9]{2}[ ]?[0-9]{3}[ ][A-ZÀ-Ý][A-Za-zÀ-ÿ\\-]{1,40}(?:[ ]CEDEX)?)?)",
        "group": 1
    },
    {
        "id": "address-romance",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "(?:^|[^A-Za-z0-9_])((?:Via|Viale|Piazza|Piazzale|Vicolo|Calle|C/|Avenida|Avda\\.|Av\\.|Paseo|Pza\\.|Camino|Carrera|Carretera|Ronda|Travesía|Calzada|Rua|Rúa|Travessa|Praça|Alameda|Estrada|Rodovia|Jirón|Pasaje|Plaza de(?:l| la)?)[ ]?(?:(?:de la|de las|de los|del|de|da|do|dos|das|della|dei|degli|delle|di|y|e)[ ])?[A-ZÀ-Ý0-9][a-zà-ÿ'.\\-]{0,40}(?:[ ](?:(?:de la|de las|de los|del|de|da|do|dos|das|della|dei|degli|delle|di|y|e)[ ])?[A-ZÀ-Ý0-9][a-zà-ÿ'.\\-]{0,40}){0,4},?[ ](?:n[º°o]\\.?[ ]?|N[º°o]\\.?[ ]?|No\\.?[ ]?|#[ ]?)?[0-9]{1,5}[A-Za-z]?(?:[ ]?[-/][ ]?[0-9]{1,5})?(?:,?[ ](?:[0-9]{1,2}[º°ª][ ]?[A-Z]?|(?:apto|apt|ap|piso|bloco|bl|casa|sala|dpto|depto|int|interior|puerta|pta)\\.?[ ]?[0-9A-Za-z]{1,5}))*(?:,?[ ]?[0-9]{5}(?:-[0-9]{3})?[ ][A-ZÀ-Ý][A-Za-zÀ-ÿ\\-]{1,40})?)(?:$|[^0-9A-Za-z])",
        "group": 1
    },
    {
        "id": "postcode-br",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "\\b(CEP:?[ ]?[0-9]{5}-?[0-9]{3})\\b",
        "group": 1,
        "keywords": [
            "cep"
        ]
    },
    {
        "id": "address-pl",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "\\b((?:ul\\.|al\\.|os\\.|pl\\.)[ ]?[A-ZŁŚŻŹĆÓ][^\\s,]{2,30}(?:[ ][A-ZŁŚŻŹĆÓa-ząćęłńóśźż][^\\s,]{1,30}){0,2}[ ][0-9]{1,4}[a-zA-Z]?(?:[ ]?/[ ]?[0-9]{1,4}|[ ]m\\.[ ]?[0-9]{1,4})?(?:,?[ ][0-9]{2}-[0-9]{3}[ ][A-ZŁŚŻŹĆ][^\\s,]{1,30})?)",
        "group": 1
    },
    {
        "id": "address-ru",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "((?:ул\\.|улица|пр\\.|пр-т|проспект|пер\\.|переулок|ш\\.|шоссе|наб\\.|бульвар|б-р)[ ]?[А-ЯЁ0-9][а-яёА-ЯЁ0-9\\-]{1,40}(?:[ ][А-ЯЁа-яё0-9\\-]{1,40}){0,2},?[ ](?:д\\.|дом)[ ]?[0-9]{1,4}[а-я]?(?:,?[ ](?:кв\\.|квартира|корп\\.|корпус|стр\\.|строение|к\\.)[ ]?[0-9]{1,4})*)",
        "group": 1
    },
    {
        "id": "address-tr",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "((?:[A-ZÇĞİÖŞÜ][^\\s,]{1,30}[ ])(?:Cad\\.|Caddesi|Cd\\.|Sok\\.|Sokak|Sokağı|Sk\\.|Bulvarı|Blv\\.|Mah\\.|Mahallesi)(?:[ ][A-ZÇĞİÖŞÜ][^\\s,]{1,30}[ ](?:Cad\\.|Caddesi|Cd\\.|Sok\\.|Sokak|Sokağı|Sk\\.))?[ ,]{0,3}No[:.]?[ ]?:?[ ]?[0-9]{1,4}[A-Z]?(?:[ ]?/[ ]?[0-9]{1,4}|[ ,]{0,3}(?:D|Daire|Kat)[:.]?[ ]?:?[ ]?[0-9]{1,4})*)",
        "group": 1
    },
    {
        "id": "address-sea",
        "source": "knowhub",
        "stage": "personal",
        "category": "address",
        "replace": "[ADDRESS]",
        "pattern": "((?:(?:Số|số)[ ])?[0-9]{1,5}[A-Za-z]?(?:/[0-9]{1,5}[A-Za-z]?)*,?[ ](?:Đường|đường|Phố|phố|Ngõ|ngõ|Hẻm|hẻm)[ ][^\\n,]{2,40}|[0-9]{1,5}(?:/[0-9]{1,5})?[ ](?:หมู่[ ]?[0-9]{1,3}[ ])?(?:ถนน|ซอย|ถ\\.|ซ\\.)[^\\n,]{2,40}|(?:Jl\\.|Jln\\.|Jalan)[ ]?[A-Z][^\\n,]{1,40}?[ ,]{1,3}No\\.?[ ]?[0-9]{1,5}[A-Za-z]?(?:,?[ ]?RT[ .]?[0-9]{1,3}[ ]?/[ ]?RW[ .]?[0-9]{1,3})?)",
        "group": 1
    },
    {
        "id": "cn-resident-id-spaced",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_.+/\\- ]|[^0-9 ] )([1-8][0-9]{2}[ \\-]?[0-9]{3}[ \\-]?[0-9]{4}[ \\-]?[0-9]{4}[ \\-]?[0-9]{3}[0-9Xx])(?:$|[^A-Za-z0-9_.\\- ]| (?:$|[^0-9]))",
        "group": 1,
        "validate": "cn_id"
    },
    {
        "id": "hk-identity-card",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_])([A-Z]{1,2}[ ]?[0-9]{6}[ ]?(?:\\([0-9A]\\)|（[0-9A]）|[0-9A]))(?:[^A-Za-z0-9_]|$)",
        "group": 1,
        "validate": "hkid"
    },
    {
        "id": "tw-national-id",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_])([A-Z][1289][0-9]{8})(?:[^A-Za-z0-9_]|$)",
        "group": 1,
        "validate": "tw_id"
    },
    {
        "id": "jp-my-number",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_.+/\\- ]|[^0-9 ] )([0-9]{4}[ \\-][0-9]{4}[ \\-][0-9]{4})(?:$|[^A-Za-z0-9_.\\- ]| (?:$|[^0-9]))",
        "group": 1,
        "validate": "jp_mynumber"
    },
    {
        "id": "jp-my-number-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:マイナンバー|個人番号|\\bmy ?number\\b)[^0-9\\n]{0,12}([0-9]{12})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "validate": "jp_mynumber",
        "keywords": [
            "マイナンバー",
            "個人番号",
            "my number",
            "mynumber"
        ]
    },
    {
        "id": "kr-resident-number",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_.+/\\- ]|[^0-9 ] )([0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])[ \\-]?[1-8][0-9]{6})(?:$|[^A-Za-z0-9_.\\- ]| (?:$|[^0-9]))",
        "group": 1,
        "validate": "kr_rrn"
    },
    {
        "id": "us-ssn",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_.+/:\\- ]|[^0-9 ] )([0-9]{3}-[0-9]{2}-[0-9]{4}|[0-9]{3} [0-9]{2} [0-9]{4})(?:$|[^A-Za-z0-9_.\\-/: ]| (?:$|[^0-9]))",
        "group": 1,
        "validate": "us_ssn"
    },
    {
        "id": "us-ssn-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:\\bssn\\b|\\bi?tin\\b|\\btaxpayer identification number|\\bsocial security(?: number| no\\.?)?|社会安全号码?|社會安全號碼?)[^0-9\\n]{0,12}([0-9]{9})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "validate": "us_ssn",
        "keywords": [
            "ssn",
            "social security",
            "社会安全",
            "社會安全",
            "tin",
            "taxpayer"
        ]
    },
    {
        "id": "uk-national-insurance",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_])([A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z](?:[0-9]{6}|[ ][0-9]{6}[ ]|[ ][0-9]{2}[ ][0-9]{2}[ ][0-9]{2}[ ])[A-D])(?:[^A-Za-z0-9_]|$)",
        "group": 1,
        "validate": "uk_nino"
    },
    {
        "id": "mrz-td3",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Z0-9<])((?:[PV][A-Z0-9<][A-Z<]{3}[A-Z0-9<]{39}[ \\t]*\\r?\\n[ \\t]*)?[A-Z0-9<]{9}[0-9][A-Z<]{3}[0-9]{6}[0-9][MFX<][0-9]{6}[0-9][A-Z0-9<]{14}[0-9<][0-9])(?:[^A-Z0-9<]|$)",
        "group": 1,
        "keywords": [
            "<"
        ],
        "validate": "mrz"
    },
    {
        "id": "mrz-td2",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Z0-9<])((?:[ACIPV][A-Z0-9<][A-Z<]{3}[A-Z0-9<]{31}[ \\t]*\\r?\\n[ \\t]*)?[A-Z0-9<]{9}[0-9][A-Z<]{3}[0-9]{6}[0-9][MFX<][0-9]{6}[0-9][A-Z0-9<]{7}[0-9])(?:[^A-Z0-9<]|$)",
        "group": 1,
        "keywords": [
            "<"
        ],
        "validate": "mrz"
    },
    {
        "id": "mrz-td1",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Z0-9<])([ACI][A-Z0-9<][A-Z<]{3}[A-Z0-9<]{9}[0-9<][A-Z0-9<]{15}[ \\t]*\\r?\\n[ \\t]*[0-9]{6}[0-9][MFX<][0-9]{6}[0-9][A-Z<]{3}[A-Z0-9<]{11}[0-9])(?:[^A-Z0-9<]|$)",
        "group": 1,
        "keywords": [
            "<"
        ],
        "validate": "mrz"
    },
    {
        "id": "es-dni-nie",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_.+/\\-])([0-9]{8}[ \\-]?[A-Z]|[XYZ][ \\-]?[0-9]{7}[ \\-]?[A-Z])(?:[^A-Za-z0-9_\\-]|$)",
        "group": 1,
        "validate": "es_dni"
    },
    {
        "id": "fr-nir",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_.+/\\-])([1-478][ ]?[0-9]{2}[ ]?(?:0[1-9]|1[0-2]|[2-9][0-9])[ ]?(?:[0-9]{2}|2[AB])[ ]?[0-9]{3}[ ]?[0-9]{3}[ ]?[0-9]{2})(?:[^A-Za-z0-9_\\-]|$)",
        "group": 1,
        "validate": "fr_nir"
    },
    {
        "id": "it-codice-fiscale",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_])([A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z])(?:[^A-Za-z0-9_]|$)",
        "group": 1,
        "validate": "it_cf"
    },
    {
        "id": "sg-nric-fin",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_])([STFG][0-9]{7}[A-Z])(?:[^A-Za-z0-9_]|$)",
        "group": 1,
        "validate": "sg_nric"
    },
    {
        "id": "nl-bsn-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:\\bbsn(?:[_\\-]?(?:nr|nummer|number|id|no))?\\b|burgerservicenummer|\\bsofi[_\\-]?nummer|citizen service number)[^0-9\\n]{0,16}([0-9]{9}|[0-9]{4}[. ][0-9]{2}[. ][0-9]{3}|[0-9]{3}[. ][0-9]{3}[. ][0-9]{3})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "bsn",
            "burgerservicenummer",
            "sofi",
            "citizen service number"
        ],
        "validate": "nl_bsn"
    },
    {
        "id": "de-steuer-id-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:steuer[ \\-]?id(?:entifikationsnummer)?|steuerliche[ \\t]+identifikationsnummer|identifikationsnummer|\\bid-?nr\\b|\\btax[ \\-]?id(?:entification number)?\\b|\\btin\\b)[^0-9\\n]{0,16}([0-9]{2}[ ]?[0-9]{3}[ ]?[0-9]{3}[ ]?[0-9]{3})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "steuer",
            "identifikationsnummer",
            "idnr",
            "id-nr",
            "tax",
            "tin"
        ],
        "validate": "de_steuer_id"
    },
    {
        "id": "pl-pesel-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "\\bpesel\\b[^0-9\\n]{0,16}([0-9]{11})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "pesel"
        ],
        "validate": "pl_pesel"
    },
    {
        "id": "se-personnummer-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:personnummer|\\bpersonnr\\b|samordningsnummer|personal identity number)[^0-9\\n]{0,16}((?:19|20)?[0-9]{6}[\\-+ ]?[0-9]{4})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "personnummer",
            "personnr",
            "samordningsnummer",
            "personal identity number"
        ],
        "validate": "se_pnr"
    },
    {
        "id": "fi-henkilotunnus",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_])([0-3][0-9][01][0-9]{3}[\\-+ABCDEFUVWXY][0-9]{3}[0-9A-Y])(?:[^A-Za-z0-9_]|$)",
        "group": 1,
        "validate": "fi_hetu"
    },
    {
        "id": "dk-cpr-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "\\bcpr\\b(?:[ .\\-]*(?:nr|nummer|number|no)\\b\\.?)?[^0-9\\n]{0,12}([0-9]{6}[\\- ]?[0-9]{4})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "cpr"
        ],
        "validate": "dk_cpr"
    },
    {
        "id": "no-fodselsnummer-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:f(?:ø|o|oe)dselsnummer|\\bd-nummer|national identity number)[^0-9\\n]{0,16}([0-9]{6}[ ]?[0-9]{5})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "fødselsnummer",
            "fodselsnummer",
            "foedselsnummer",
            "d-nummer",
            "national identity number"
        ],
        "validate": "no_fnr"
    },
    {
        "id": "be-national-number",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^0-9.])([0-9]{2}\\.[0-9]{2}\\.[0-9]{2}-[0-9]{3}\\.[0-9]{2})(?:[^0-9]|$)",
        "group": 1,
        "validate": "be_nrn"
    },
    {
        "id": "be-national-number-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:rijksregisternummer|rijksregister|registre national|num(?:é|e)ro national|national (?:register|registration) number|\\binsz\\b|\\bniss\\b)[^0-9\\n]{0,16}([0-9]{2}[.]?[0-9]{2}[.]?[0-9]{2}[\\-. ]?[0-9]{3}[.]?[0-9]{2})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "rijksregister",
            "registre national",
            "numéro national",
            "numero national",
            "national register",
            "national registration",
            "insz",
            "niss"
        ],
        "validate": "be_nrn"
    },
    {
        "id": "at-svnr-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:sozialversicherungsnummer|versicherungsnummer|\\bsv-?nummer|\\bsvnr\\b|\\bsv-nr)[^0-9\\n]{0,16}([0-9]{4}[ ]?[0-9]{6})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "sozialversicherungsnummer",
            "versicherungsnummer",
            "svnummer",
            "sv-nummer",
            "svnr",
            "sv-nr"
        ],
        "validate": "at_svnr"
    },
    {
        "id": "ch-ahv-number",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^0-9.])(756\\.?[0-9]{4}\\.?[0-9]{4}\\.?[0-9]{2})(?:[^0-9]|$)",
        "group": 1,
        "validate": "ch_ahv"
    },
    {
        "id": "ie-pps-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:\\bppsn?\\b|personal public service)[^A-Za-z0-9\\n]{0,16}([0-9]{7}[A-W][A-IW]?)(?:[^A-Za-z0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "pps",
            "personal public service"
        ],
        "validate": "ie_pps"
    },
    {
        "id": "pt-nif-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:\\bnif\\b|\\bnipc\\b|contribuinte)[^0-9\\n]{0,16}([0-9]{3}[ ]?[0-9]{3}[ ]?[0-9]{3})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "nif",
            "nipc",
            "contribuinte"
        ],
        "validate": "pt_nif"
    },
    {
        "id": "br-cpf",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^0-9.])([0-9]{3}\\.[0-9]{3}\\.[0-9]{3}-[0-9]{2})(?:[^0-9]|$)",
        "group": 1,
        "validate": "br_cpf"
    },
    {
        "id": "br-cpf-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "\\bcpf\\b[^0-9\\n]{0,12}([0-9]{11})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "cpf"
        ],
        "validate": "br_cpf"
    },
    {
        "id": "br-cnpj",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^0-9.])([0-9]{2}\\.[0-9]{3}\\.[0-9]{3}/[0-9]{4}-[0-9]{2})(?:[^0-9]|$)",
        "group": 1,
        "validate": "br_cnpj"
    },
    {
        "id": "br-cnpj-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "\\bcnpj\\b[^0-9\\n]{0,12}([0-9]{14})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "cnpj"
        ],
        "validate": "br_cnpj"
    },
    {
        "id": "in-aadhaar-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:aadhaa?r|\\buidai\\b|आधार)[^0-9\\n]{0,24}([2-9][0-9]{3}[ \\-]?[0-9]{4}[ \\-]?[0-9]{4})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "aadhaar",
            "aadhar",
            "uidai",
            "आधार"
        ],
        "validate": "in_aadhaar"
    },
    {
        "id": "in-pan-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:\\b[Pp][Aa][Nn]\\b(?:[ \\-]?(?:[Cc]ard|[Nn]o|[Nn]umber))?\\.?(?:[ \\-]?(?:[Nn]o|[Nn]umber)\\.?)?|[Pp]ermanent [Aa]ccount [Nn]umber)[^A-Za-z0-9\\n]{0,12}([A-Z]{3}[ABCFGHJLPT][A-Z][0-9]{4}[A-Z])(?:[^A-Za-z0-9]|$)",
        "group": 1,
        "keywords": [
            "pan",
            "permanent account number"
        ]
    },
    {
        "id": "ca-sin-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:\\bsin\\b|social insurance number|num(?:é|e)ro d'assurance sociale|\\bnas\\b)[^0-9\\n]{0,16}([0-9]{3}[ \\-]?[0-9]{3}[ \\-]?[0-9]{3})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "sin",
            "social insurance",
            "assurance sociale",
            "nas"
        ],
        "validate": "ca_sin"
    },
    {
        "id": "us-itin-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:\\bitin\\b|individual taxpayer identification number)[^0-9\\n]{0,16}([0-9]{3}[\\- ]?[0-9]{2}[\\- ]?[0-9]{4})(?:[^0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "itin",
            "individual taxpayer"
        ],
        "validate": "us_itin"
    },
    {
        "id": "mx-curp",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:^|[^A-Za-z0-9_])([A-Z][AEIOUX][A-Z]{2}[0-9]{6}[HMX][A-Z]{5}[0-9A-Z][0-9])(?:[^A-Za-z0-9_]|$)",
        "group": 1,
        "validate": "mx_curp"
    },
    {
        "id": "de-ausweis-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:ausweisnummer|personalausweis(?:nummer)?|ausweis-nr|identity card number)[^A-Za-z0-9\\n]{0,20}([CFGHJKLMNPRTVWXYZ0-9]{9}[0-9])(?:[^A-Za-z0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "ausweis",
            "identity card number"
        ],
        "validate": "de_ausweis"
    },
    {
        "id": "email-obfuscated",
        "source": "knowhub",
        "stage": "personal",
        "category": "email",
        "replace": "[EMAIL]",
        "pattern": "(?:^|[^A-Za-z0-9._%+\\-])([A-Za-z0-9._%+\\-]{1,64}[ \\t]*(?:\\[at\\]|\\(at\\)|\\{at\\}|（at）|［at］)[ \\t]*[A-Za-z0-9\\-]{1,63}(?:(?:[ \\t]*(?:\\[dot\\]|\\(dot\\)|\\{dot\\}|（dot）)[ \\t]*|\\.)[A-Za-z0-9\\-]{1,63}){1,4})",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "[at]",
            "(at)",
            "{at}",
            "（at）",
            "［at］"
        ]
    },
    {
        "id": "passport-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:passport|reisepass|passnummer|passeport|pasaporte|passaporto|passaporte|paspoort|paszport|паспорт|护照|護照|旅券|여권)(?:[ \\t]*(?:no\\.?|nr\\.?|n°|number|nummer|numéro|número|numero|num\\.?|#|is|ist|est|es|è|号码|號碼|号|號|番号|번호|номер|:|：|=))*[ \\t]*([A-Z]{0,2}[ ]?[0-9](?:[ \\-]?[0-9]){5,8}|[A-Z0-9]{6,9})(?:[^A-Za-z0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "passport",
            "reisepass",
            "passnummer",
            "passeport",
            "pasaporte",
            "passaporto",
            "passaporte",
            "paspoort",
            "paszport",
            "паспорт",
            "护照",
            "護照",
            "旅券",
            "여권"
        ],
        "require": [
            "digit"
        ]
    },
    {
        "id": "iban",
        "source": "knowhub",
        "stage": "personal",
        "category": "payment_card",
        "replace": "[IBAN]",
        "pattern": "(?:^|[^A-Za-z0-9])([A-Z]{2}[0-9]{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?)(?:[^A-Za-z0-9]|$)",
        "group": 1,
        "validate": "iban"
    },
    {
        "id": "phone-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "phone",
        "replace": "[PHONE]",
        "pattern": "(?:\\b(?:tel|phone|mobile|cell|whatsapp|telefon|telefono|handy)\\b|teléfono|téléphone|電話|电话|手機|手机|携帯|전화|휴대폰|연락처)[^0-9\\n+\\[]{0,16}((?:\\(0[0-9]{1,4}\\)[ ]?)?[0-9](?:[ \\-]?[0-9]){7,13})(?:[^A-Za-z0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "tel",
            "phone",
            "mobile",
            "cell",
            "whatsapp",
            "telefon",
            "handy",
            "teléfono",
            "téléphone",
            "電話",
            "电话",
            "手機",
            "手机",
            "携帯",
            "전화",
            "휴대폰",
            "연락처"
        ]
    },
    {
        "id": "phone-jp-kr-mobile",
        "source": "knowhub",
        "stage": "personal",
        "category": "phone",
        "replace": "[PHONE]",
        "pattern": "(?:^|[^A-Za-z0-9_.+/\\- ]|[^0-9 ] )((?:0[5-9]0|01[016789])(?:-[0-9]{3,4}-|[ ][0-9]{3,4}[ ]|[0-9]{4})[0-9]{4})(?:$|[^A-Za-z0-9_.\\- ]| (?:$|[^0-9]))",
        "group": 1
    },
    {
        "id": "phone-tw-mobile",
        "source": "knowhub",
        "stage": "personal",
        "category": "phone",
        "replace": "[PHONE]",
        "pattern": "(?:^|[^A-Za-z0-9_.+/\\- ]|[^0-9 ] )(09[0-9]{2}(?:-[0-9]{3}-|[ ][0-9]{3}[ ]|[0-9]{3})[0-9]{3})(?:$|[^A-Za-z0-9_.\\- ]| (?:$|[^0-9]))",
        "group": 1
    },
    {
        "id": "phone-landline-dashed",
        "source": "knowhub",
        "stage": "personal",
        "category": "phone",
        "replace": "[PHONE]",
        "pattern": "(?:^|[^A-Za-z0-9_.+/:\\-])(\\(0[0-9]{1,4}\\)[ ]?[0-9]{3,4}-[0-9]{4}|0[1-9][0-9]{0,3}-[0-9]{3,4}-[0-9]{4})(?:[^A-Za-z0-9_.\\-]|$)",
        "group": 1
    },
    {
        "id": "phone-us-dotted",
        "source": "knowhub",
        "stage": "personal",
        "category": "phone",
        "replace": "[PHONE]",
        "pattern": "(?:^|[^A-Za-z0-9_.\\-])(\\(?[2-9][0-9]{2}\\)?\\.[0-9]{3}\\.[0-9]{4})(?:[^A-Za-z0-9_.\\-]|$)",
        "group": 1
    },
    {
        "id": "phone-eu-mobile",
        "source": "knowhub",
        "stage": "personal",
        "category": "phone",
        "replace": "[PHONE]",
        "pattern": "(?:^|[^A-Za-z0-9_.+/\\- ]|[^0-9 ] )(07[0-9]{3}[ ]?[0-9]{6}|01[5-7][0-9]{1,2}[ /\\-]?[0-9]{7,8}|0[1-9](?:[ ][0-9]{2}){4}|0[1-9](?:\\.[0-9]{2}){4}|0[67][0-9]{8}|06-[0-9]{8})(?:$|[^A-Za-z0-9_.\\- ]| (?:$|[^0-9]))",
        "group": 1
    },
    {
        "id": "phone-landline-spaced",
        "source": "knowhub",
        "stage": "personal",
        "category": "phone",
        "replace": "[PHONE]",
        "pattern": "(?:^|[^A-Za-z0-9_.+/\\- ]|[^0-9 ] )(\\(0[0-9]{1,4}\\)[ ]?[0-9]{3,4}[ ][0-9]{4}|0[1-9][0-9]{1,3}[ ][0-9]{3,4}[ ][0-9]{4})(?:$|[^A-Za-z0-9_.\\- ]| (?:$|[^0-9]))",
        "group": 1
    },
    {
        "id": "mo-bir-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "national_id",
        "replace": "[ID_NUMBER]",
        "pattern": "(?:澳門|澳门|macau|macao)[^\\n]{0,40}?(?:[^0-9A-Za-z/]|^)([157][0-9]{6}\\([0-9]\\)|[157]/[0-9]{6}/[0-9])(?:[^0-9A-Za-z/(]|$)",
        "group": 1,
        "ignore_case": true,
        "keywords": [
            "澳門",
            "澳门",
            "macau",
            "macao"
        ]
    },
    {
        "id": "1password-secret-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\bA3-[A-Z0-9]{6}-(?:(?:[A-Z0-9]{11})|(?:[A-Z0-9]{6}-[A-Z0-9]{5}))-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\\b",
        "keywords": [
            "a3-"
        ],
        "entropy": 3.8
    },
    {
        "id": "1password-service-account-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "ops_eyJ[a-zA-Z0-9+/]{250,}={0,3}",
        "keywords": [
            "ops_"
        ],
        "entropy": 4
    },
    {
        "id": "adafruit-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:adafruit)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "adafruit"
        ]
    },
    {
        "id": "adobe-client-id",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:adobe)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "adobe"
        ],
        "entropy": 2
    },
    {
        "id": "adobe-client-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(p8e-[a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "p8e-"
        ],
        "entropy": 2
    },
    {
        "id": "age-secret-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        "keywords": [
            "age-secret-key-1"
        ]
    },
    {
        "id": "airtable-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:airtable)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{17})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "airtable"
        ]
    },
    {
        "id": "algolia-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:algolia)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "algolia"
        ]
    },
    {
        "id": "alibaba-access-key-id",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(LTAI[a-z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "ltai"
        ],
        "entropy": 2
    },
    {
        "id": "alibaba-secret-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:alibaba)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{30})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "alibaba"
        ],
        "entropy": 2
    },
    {
        "id": "anthropic-admin-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(sk-ant-admin01-[a-zA-Z0-9_\\-]{93}AA)(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "sk-ant-admin01"
        ]
    },
    {
        "id": "anthropic-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(sk-ant-api03-[a-zA-Z0-9_\\-]{93}AA)(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "sk-ant-api03"
        ]
    },
    {
        "id": "artifactory-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\bAKCp[A-Za-z0-9]{69}\\b",
        "keywords": [
            "akcp"
        ],
        "entropy": 4.5
    },
    {
        "id": "artifactory-reference-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\bcmVmd[A-Za-z0-9]{59}\\b",
        "keywords": [
            "cmvmd"
        ],
        "entropy": 4.5
    },
    {
        "id": "asana-client-id",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:asana)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "asana"
        ]
    },
    {
        "id": "asana-client-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:asana)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "asana"
        ]
    },
    {
        "id": "atlassian-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:(?:ATLASSIAN|[Aa]tlassian)|(?:CONFLUENCE|[Cc]onfluence)|(?:JIRA|[Jj]ira))(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{20}[a-f0-9]{4})(?:[\\x60'\"\\s;]|\\\\[nr]|$)|\\b(ATATT3[A-Za-z0-9_\\-=]{186})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "atatt3",
            "atlassian",
            "confluence",
            "jira"
        ],
        "entropy": 3.5
    },
    {
        "id": "authress-service-client-access-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b((?:sc|ext|scauth|authress)_[a-z0-9]{5,30}\\.[a-z0-9]{4,6}\\.(?:acc)[_-][a-z0-9-]{10,32}\\.[a-z0-9+/_=-]{30,120})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "authress_",
            "ext_",
            "sc_",
            "scauth_"
        ],
        "entropy": 2
    },
    {
        "id": "aws-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\\b",
        "group": 1,
        "keywords": [
            "a3t",
            "abia",
            "acca",
            "akia",
            "asia"
        ],
        "entropy": 3
    },
    {
        "id": "aws-amazon-bedrock-api-key-long-lived",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(ABSK[A-Za-z0-9+/]{109,269}={0,2})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "absk"
        ],
        "entropy": 3
    },
    {
        "id": "aws-amazon-bedrock-api-key-short-lived",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t",
        "keywords": [
            "bedrock-api-key-"
        ],
        "entropy": 3
    },
    {
        "id": "azure-ad-client-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "(?:^|[\\\\'\"\\x60\\s>=:(,)])([a-zA-Z0-9_~.]{3}[0-9]Q~[a-zA-Z0-9_~.-]{31,34})(?:$|[\\\\'\"\\x60\\s<),])",
        "group": 1,
        "keywords": [
            "q~"
        ],
        "entropy": 3
    },
    {
        "id": "beamer-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:beamer)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(b_[a-z0-9=_\\-]{44})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "beamer"
        ]
    },
    {
        "id": "bitbucket-client-id",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:bitbucket)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "bitbucket"
        ]
    },
    {
        "id": "bitbucket-client-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:bitbucket)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "bitbucket"
        ]
    },
    {
        "id": "bittrex-access-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:bittrex)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "bittrex"
        ]
    },
    {
        "id": "bittrex-secret-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:bittrex)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "bittrex"
        ]
    },
    {
        "id": "clickhouse-cloud-api-secret-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(4b1d[A-Za-z0-9]{38})\\b",
        "group": 1,
        "keywords": [
            "4b1d"
        ],
        "entropy": 3
    },
    {
        "id": "clojars-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "CLOJARS_[a-z0-9]{60}",
        "ignore_case": true,
        "keywords": [
            "clojars_"
        ],
        "entropy": 2
    },
    {
        "id": "cloudflare-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:cloudflare)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "cloudflare"
        ],
        "entropy": 2
    },
    {
        "id": "cloudflare-global-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:cloudflare)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{37})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "cloudflare"
        ],
        "entropy": 2
    },
    {
        "id": "cloudflare-origin-ca-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(v1\\.0-[a-f0-9]{24}-[a-f0-9]{146})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "cloudflare",
            "v1.0-"
        ],
        "entropy": 2
    },
    {
        "id": "codecov-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:codecov)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "codecov"
        ]
    },
    {
        "id": "coinbase-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:coinbase)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_-]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "coinbase"
        ]
    },
    {
        "id": "confluent-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:confluent)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "confluent"
        ]
    },
    {
        "id": "confluent-secret-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:confluent)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "confluent"
        ]
    },
    {
        "id": "contentful-delivery-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:contentful)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{43})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "contentful"
        ]
    },
    {
        "id": "databricks-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(dapi[a-f0-9]{32}(?:-[0-9])?)(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "dapi"
        ],
        "entropy": 3
    },
    {
        "id": "datadog-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:datadog)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "datadog"
        ]
    },
    {
        "id": "defined-networking-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:dnkey)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(dnkey-[a-z0-9=_\\-]{26}-[a-z0-9=_\\-]{52})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "dnkey"
        ]
    },
    {
        "id": "digitalocean-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(doo_v1_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "doo_v1_"
        ],
        "entropy": 3
    },
    {
        "id": "digitalocean-pat",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(dop_v1_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "dop_v1_"
        ],
        "entropy": 3
    },
    {
        "id": "digitalocean-refresh-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(dor_v1_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "dor_v1_"
        ]
    },
    {
        "id": "discord-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:discord)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "discord"
        ]
    },
    {
        "id": "discord-client-id",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:discord)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{18})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "discord"
        ],
        "entropy": 2
    },
    {
        "id": "discord-client-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:discord)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "discord"
        ],
        "entropy": 2
    },
    {
        "id": "doppler-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "dp\\.pt\\.[a-z0-9]{43}",
        "ignore_case": true,
        "keywords": [
            "dp.pt."
        ],
        "entropy": 2
    },
    {
        "id": "droneci-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:droneci)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "droneci"
        ]
    },
    {
        "id": "dropbox-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:dropbox)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{15})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "dropbox"
        ]
    },
    {
        "id": "dropbox-long-lived-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:dropbox)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{11}(AAAAAAAAAA)[a-z0-9\\-_=]{43})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "dropbox"
        ]
    },
    {
        "id": "dropbox-short-lived-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:dropbox)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(sl\\.[a-z0-9\\-=_]{135})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "dropbox"
        ]
    },
    {
        "id": "duffel-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "duffel_(?:test|live)_[a-z0-9_\\-=]{43}",
        "ignore_case": true,
        "keywords": [
            "duffel_"
        ],
        "entropy": 2
    },
    {
        "id": "dynatrace-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "dt0c01\\.[a-z0-9]{24}\\.[a-z0-9]{64}",
        "ignore_case": true,
        "keywords": [
            "dt0c01."
        ],
        "entropy": 4
    },
    {
        "id": "easypost-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\bEZAK[a-z0-9]{54}\\b",
        "ignore_case": true,
        "keywords": [
            "ezak"
        ],
        "entropy": 2
    },
    {
        "id": "easypost-test-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\bEZTK[a-z0-9]{54}\\b",
        "ignore_case": true,
        "keywords": [
            "eztk"
        ],
        "entropy": 2
    },
    {
        "id": "etsy-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:(?:ETSY|[Ee]tsy))(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{24})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "etsy"
        ],
        "entropy": 3
    },
    {
        "id": "facebook-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b([0-9]{15,16}(\\||%)[0-9a-z\\-_]{27,40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "facebook"
        ],
        "entropy": 3
    },
    {
        "id": "facebook-page-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(EAA[MC][a-z0-9]{100,})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "eaac",
            "eaam"
        ],
        "entropy": 4
    },
    {
        "id": "facebook-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:facebook)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "facebook"
        ],
        "entropy": 3
    },
    {
        "id": "fastly-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:fastly)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "fastly"
        ]
    },
    {
        "id": "finicity-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:finicity)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "finicity"
        ]
    },
    {
        "id": "finicity-client-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:finicity)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "finicity"
        ]
    },
    {
        "id": "finnhub-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:finnhub)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "finnhub"
        ]
    },
    {
        "id": "flickr-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:flickr)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "flickr"
        ]
    },
    {
        "id": "flutterwave-encryption-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "FLWSECK_TEST-[a-h0-9]{12}",
        "ignore_case": true,
        "keywords": [
            "flwseck_test"
        ],
        "entropy": 2
    },
    {
        "id": "flutterwave-public-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "FLWPUBK_TEST-[a-h0-9]{32}-X",
        "ignore_case": true,
        "keywords": [
            "flwpubk_test"
        ],
        "entropy": 2
    },
    {
        "id": "flutterwave-secret-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "FLWSECK_TEST-[a-h0-9]{32}-X",
        "ignore_case": true,
        "keywords": [
            "flwseck_test"
        ],
        "entropy": 2
    },
    {
        "id": "flyio-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b((?:fo1_[A-Za-z0-9_-]{43}|fm1[ar]_[a-zA-Z0-9+\\/]{100,}={0,3}|fm2_[a-zA-Z0-9+\\/]{100,}={0,3}))(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "fm1",
            "fm2_",
            "fo1_"
        ],
        "entropy": 4
    },
    {
        "id": "frameio-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "fio-u-[a-z0-9\\-_=]{64}",
        "ignore_case": true,
        "keywords": [
            "fio-u-"
        ]
    },
    {
        "id": "freshbooks-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:freshbooks)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "freshbooks"
        ]
    },
    {
        "id": "gcp-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(AIza[A-Za-z0-9_-]{35})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "aiza"
        ],
        "entropy": 4
    },
    {
        "id": "github-app-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "(?:ghu|ghs)_[0-9a-zA-Z]{36}",
        "keywords": [
            "ghs_",
            "ghu_"
        ],
        "entropy": 3
    },
    {
        "id": "github-fine-grained-pat",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "github_pat_[A-Za-z0-9_]{82}",
        "keywords": [
            "github_pat_"
        ],
        "entropy": 3
    },
    {
        "id": "github-oauth",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "gho_[0-9a-zA-Z]{36}",
        "keywords": [
            "gho_"
        ],
        "entropy": 3
    },
    {
        "id": "github-pat",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "ghp_[0-9a-zA-Z]{36}",
        "keywords": [
            "ghp_"
        ],
        "entropy": 3
    },
    {
        "id": "github-refresh-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "ghr_[0-9a-zA-Z]{36}",
        "keywords": [
            "ghr_"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-cicd-job-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "glcbt-[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20}",
        "keywords": [
            "glcbt-"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-deploy-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "gldt-[0-9a-zA-Z_\\-]{20}",
        "keywords": [
            "gldt-"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-feature-flag-client-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "glffct-[0-9a-zA-Z_\\-]{20}",
        "keywords": [
            "glffct-"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-feed-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "glft-[0-9a-zA-Z_\\-]{20}",
        "keywords": [
            "glft-"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-incoming-mail-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "glimt-[0-9a-zA-Z_\\-]{25}",
        "keywords": [
            "glimt-"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-kubernetes-agent-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "glagent-[0-9a-zA-Z_\\-]{50}",
        "keywords": [
            "glagent-"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-oauth-app-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "gloas-[0-9a-zA-Z_\\-]{64}",
        "keywords": [
            "gloas-"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-pat",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "glpat-[A-Za-z0-9_-]{20}",
        "keywords": [
            "glpat-"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-pat-routable",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\bglpat-[0-9a-zA-Z_-]{27,300}\\.[0-9a-z]{2}[0-9a-z]{7}\\b",
        "keywords": [
            "glpat-"
        ],
        "entropy": 4
    },
    {
        "id": "gitlab-ptt",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "glptt-[0-9a-f]{40}",
        "keywords": [
            "glptt-"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-rrt",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "GR1348941[A-Za-z0-9_-]{20}",
        "keywords": [
            "gr1348941"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-runner-authentication-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "glrt-[0-9a-zA-Z_\\-]{20}",
        "keywords": [
            "glrt-"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-runner-authentication-token-routable",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\bglrt-t[0-9]_[0-9a-zA-Z_\\-]{27,300}\\.[0-9a-z]{2}[0-9a-z]{7}\\b",
        "keywords": [
            "glrt-"
        ],
        "entropy": 4
    },
    {
        "id": "gitlab-scim-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "glsoat-[0-9a-zA-Z_\\-]{20}",
        "keywords": [
            "glsoat-"
        ],
        "entropy": 3
    },
    {
        "id": "gitlab-session-cookie",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "_gitlab_session=[0-9a-z]{32}",
        "keywords": [
            "_gitlab_session="
        ],
        "entropy": 3
    },
    {
        "id": "gitter-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:gitter)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "gitter"
        ]
    },
    {
        "id": "gocardless-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:gocardless)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(live_[a-z0-9\\-_=]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "gocardless",
            "live_"
        ]
    },
    {
        "id": "grafana-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(eyJrIjoi[A-Za-z0-9]{70,400}={0,3})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "eyjrijoi"
        ],
        "entropy": 3
    },
    {
        "id": "grafana-cloud-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(glc_[A-Za-z0-9+/]{32,400}={0,3})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "glc_"
        ],
        "entropy": 3
    },
    {
        "id": "grafana-service-account-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "glsa_"
        ],
        "entropy": 3
    },
    {
        "id": "harness-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "(?:pat|sat)\\.[a-zA-Z0-9_-]{22}\\.[a-zA-Z0-9]{24}\\.[a-zA-Z0-9]{20}",
        "keywords": [
            "pat.",
            "sat."
        ]
    },
    {
        "id": "hashicorp-tf-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[a-z0-9]{14}\\.(?:atlasv1)\\.[a-z0-9\\-_=]{60,70}",
        "ignore_case": true,
        "keywords": [
            "atlasv1"
        ],
        "entropy": 3.5
    },
    {
        "id": "hashicorp-tf-password",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:administrator_login_password|password)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(\"[a-z0-9=_\\-]{8,20}\")(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "administrator_login_password",
            "password"
        ],
        "entropy": 2
    },
    {
        "id": "heroku-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:heroku)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "heroku"
        ]
    },
    {
        "id": "heroku-api-key-v2",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b((HRKU-AA[0-9a-zA-Z_-]{58}))(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "hrku-aa"
        ],
        "entropy": 4
    },
    {
        "id": "hubspot-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:hubspot)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "hubspot"
        ]
    },
    {
        "id": "infracost-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(ico-[a-zA-Z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "ico-"
        ],
        "entropy": 3
    },
    {
        "id": "intercom-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:intercom)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{60})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "intercom"
        ]
    },
    {
        "id": "intra42-client-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(s-s4t2(?:ud|af)-[abcdef0123456789]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "intra",
            "s-s4t2af-",
            "s-s4t2ud-"
        ],
        "entropy": 3
    },
    {
        "id": "jfrog-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:jfrog|artifactory|bintray|xray)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{73})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "artifactory",
            "bintray",
            "jfrog",
            "xray"
        ]
    },
    {
        "id": "jfrog-identity-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:jfrog|artifactory|bintray|xray)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "artifactory",
            "bintray",
            "jfrog",
            "xray"
        ]
    },
    {
        "id": "jwt",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(ey[a-zA-Z0-9]{17,}\\.ey[a-zA-Z0-9\\/\\\\_-]{17,}\\.(?:[a-zA-Z0-9\\/\\\\_-]{10,}={0,2})?)(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "ey"
        ],
        "entropy": 3
    },
    {
        "id": "kraken-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:kraken)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9\\/=_\\+\\-]{80,90})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "kraken"
        ]
    },
    {
        "id": "kucoin-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:kucoin)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{24})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "kucoin"
        ]
    },
    {
        "id": "kucoin-secret-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:kucoin)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "kucoin"
        ]
    },
    {
        "id": "launchdarkly-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:launchdarkly)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "launchdarkly"
        ]
    },
    {
        "id": "linear-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "lin_api_[a-z0-9]{40}",
        "ignore_case": true,
        "keywords": [
            "lin_api_"
        ],
        "entropy": 2
    },
    {
        "id": "linear-client-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:linear)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "linear"
        ],
        "entropy": 2
    },
    {
        "id": "linkedin-client-id",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:linked[_-]?in)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{14})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "linked-in",
            "linked_in",
            "linkedin"
        ],
        "entropy": 2
    },
    {
        "id": "linkedin-client-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:linked[_-]?in)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "linked-in",
            "linked_in",
            "linkedin"
        ],
        "entropy": 2
    },
    {
        "id": "lob-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:lob)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}((live|test)_[a-f0-9]{35})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "live_",
            "test_"
        ]
    },
    {
        "id": "lob-pub-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:lob)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}((test|live)_pub_[a-f0-9]{31})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "_pub",
            "live_pub",
            "test_pub"
        ]
    },
    {
        "id": "looker-client-id",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:looker)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "looker"
        ]
    },
    {
        "id": "looker-client-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:looker)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{24})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "looker"
        ]
    },
    {
        "id": "mailchimp-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:MailchimpSDK.initialize|mailchimp)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32}-us[0-9][0-9])(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "mailchimp"
        ]
    },
    {
        "id": "mailgun-private-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:mailgun)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(key-[a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "mailgun"
        ]
    },
    {
        "id": "mailgun-pub-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:mailgun)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(pubkey-[a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "mailgun"
        ]
    },
    {
        "id": "mailgun-signing-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:mailgun)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "mailgun"
        ]
    },
    {
        "id": "mapbox-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:mapbox)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(pk\\.[a-z0-9]{60}\\.[a-z0-9]{22})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "mapbox"
        ]
    },
    {
        "id": "mattermost-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:mattermost)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{26})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "mattermost"
        ]
    },
    {
        "id": "maxmind-license-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b([A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk)(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "_mmk"
        ],
        "entropy": 4
    },
    {
        "id": "messagebird-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:message[_-]?bird)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{25})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "message-bird",
            "message_bird",
            "messagebird"
        ]
    },
    {
        "id": "messagebird-client-id",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:message[_-]?bird)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "message-bird",
            "message_bird",
            "messagebird"
        ]
    },
    {
        "id": "microsoft-teams-webhook",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "https://[a-z0-9]+\\.webhook\\.office\\.com/webhookb2/[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}@[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}/IncomingWebhook/[a-z0-9]{32}/[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}",
        "group": 1,
        "keywords": [
            "incomingwebhook",
            "webhook.office.com",
            "webhookb2"
        ]
    },
    {
        "id": "netlify-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:netlify)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{40,46})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "netlify"
        ]
    },
    {
        "id": "new-relic-browser-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:new-relic|newrelic|new_relic)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(NRJS-[a-f0-9]{19})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "nrjs-"
        ]
    },
    {
        "id": "new-relic-insert-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:new-relic|newrelic|new_relic)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(NRII-[a-z0-9-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "nrii-"
        ]
    },
    {
        "id": "new-relic-user-api-id",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:new-relic|newrelic|new_relic)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "new-relic",
            "new_relic",
            "newrelic"
        ]
    },
    {
        "id": "new-relic-user-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:new-relic|newrelic|new_relic)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(NRAK-[a-z0-9]{27})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "nrak"
        ]
    },
    {
        "id": "notion-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(ntn_[0-9]{11}[A-Za-z0-9]{32}[A-Za-z0-9]{3})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "ntn_"
        ],
        "entropy": 4
    },
    {
        "id": "npm-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(npm_[a-z0-9]{36})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "npm_"
        ],
        "entropy": 2
    },
    {
        "id": "nuget-config-password",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "<add key=\\\"(?:(?:ClearText)?Password)\\\"\\s*value=\\\"(.{8,})\\\"\\s*/>",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "<add key="
        ],
        "entropy": 1
    },
    {
        "id": "nytimes-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:nytimes|new-york-times,|newyorktimes)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "new-york-times",
            "newyorktimes",
            "nytimes"
        ]
    },
    {
        "id": "octopus-deploy-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(API-[A-Z0-9]{26})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "api-"
        ],
        "entropy": 3
    },
    {
        "id": "openai-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "t3blbkfj"
        ],
        "entropy": 3
    },
    {
        "id": "perplexity-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(pplx-[a-zA-Z0-9]{48})(?:[\\x60'\"\\s;]|\\\\[nr]|$|\\b)",
        "group": 1,
        "keywords": [
            "pplx-"
        ],
        "entropy": 4
    },
    {
        "id": "plaid-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:plaid)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "plaid"
        ]
    },
    {
        "id": "plaid-client-id",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:plaid)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{24})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "plaid"
        ],
        "entropy": 3.5
    },
    {
        "id": "plaid-secret-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:plaid)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{30})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "plaid"
        ],
        "entropy": 3.5
    },
    {
        "id": "planetscale-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(pscale_tkn_[A-Za-z0-9_=\\.-]{32,64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "pscale_tkn_"
        ],
        "entropy": 3
    },
    {
        "id": "planetscale-oauth-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(pscale_oauth_[A-Za-z0-9_=\\.-]{32,64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "pscale_oauth_"
        ],
        "entropy": 3
    },
    {
        "id": "planetscale-password",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(pscale_pw_[A-Za-z0-9_=\\.-]{32,64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "pscale_pw_"
        ],
        "entropy": 3
    },
    {
        "id": "postman-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(PMAK-[a-f0-9]{24}\\-[a-f0-9]{34})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "pmak-"
        ],
        "entropy": 3
    },
    {
        "id": "prefect-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(pnu_[a-zA-Z0-9]{36})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "pnu_"
        ],
        "entropy": 2
    },
    {
        "id": "pulumi-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(pul-[a-f0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "pul-"
        ],
        "entropy": 2
    },
    {
        "id": "pypi-upload-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}",
        "keywords": [
            "pypi-ageichlwas5vcmc"
        ],
        "entropy": 3
    },
    {
        "id": "rapidapi-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:rapidapi)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_-]{50})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "rapidapi"
        ]
    },
    {
        "id": "readme-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(rdme_[a-z0-9]{70})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "rdme_"
        ],
        "entropy": 2
    },
    {
        "id": "rubygems-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(rubygems_[a-f0-9]{48})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "rubygems_"
        ],
        "entropy": 2
    },
    {
        "id": "scalingo-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(tk-us-[A-Za-z0-9_-]{48})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "tk-us-"
        ],
        "entropy": 2
    },
    {
        "id": "sendbird-access-id",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:sendbird)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "sendbird"
        ]
    },
    {
        "id": "sendbird-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:sendbird)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "sendbird"
        ]
    },
    {
        "id": "sendgrid-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(SG\\.[a-z0-9=_\\-\\.]{66})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "sg."
        ],
        "entropy": 2
    },
    {
        "id": "sendinblue-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(xkeysib-[a-f0-9]{64}\\-[a-z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "xkeysib-"
        ],
        "entropy": 2
    },
    {
        "id": "sentry-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:sentry)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "sentry"
        ],
        "entropy": 3
    },
    {
        "id": "sentry-user-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(sntryu_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "sntryu_"
        ],
        "entropy": 3.5
    },
    {
        "id": "settlemint-application-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(sm_aat_[a-zA-Z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "sm_aat"
        ],
        "entropy": 3
    },
    {
        "id": "settlemint-personal-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(sm_pat_[a-zA-Z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "sm_pat"
        ],
        "entropy": 3
    },
    {
        "id": "settlemint-service-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(sm_sat_[a-zA-Z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "sm_sat"
        ],
        "entropy": 3
    },
    {
        "id": "shippo-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(shippo_(?:live|test)_[a-fA-F0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "shippo_"
        ],
        "entropy": 2
    },
    {
        "id": "shopify-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "shpat_[a-fA-F0-9]{32}",
        "keywords": [
            "shpat_"
        ],
        "entropy": 2
    },
    {
        "id": "shopify-custom-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "shpca_[a-fA-F0-9]{32}",
        "keywords": [
            "shpca_"
        ],
        "entropy": 2
    },
    {
        "id": "shopify-private-app-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "shppa_[a-fA-F0-9]{32}",
        "keywords": [
            "shppa_"
        ],
        "entropy": 2
    },
    {
        "id": "shopify-shared-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "shpss_[a-fA-F0-9]{32}",
        "keywords": [
            "shpss_"
        ],
        "entropy": 2
    },
    {
        "id": "sidekiq-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:BUNDLE_ENTERPRISE__CONTRIBSYS__COM|BUNDLE_GEMS__CONTRIBSYS__COM)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{8}:[a-f0-9]{8})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "bundle_enterprise__contribsys__com",
            "bundle_gems__contribsys__com"
        ]
    },
    {
        "id": "sidekiq-sensitive-url",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\bhttps?://([a-f0-9]{8}:[a-f0-9]{8})@(?:gems.contribsys.com|enterprise.contribsys.com)(?:[\\/|\\#|\\?|:]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "enterprise.contribsys.com",
            "gems.contribsys.com"
        ]
    },
    {
        "id": "slack-app-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "xapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+",
        "ignore_case": true,
        "keywords": [
            "xapp"
        ],
        "entropy": 2
    },
    {
        "id": "slack-bot-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*",
        "keywords": [
            "xoxb"
        ],
        "entropy": 3
    },
    {
        "id": "slack-config-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "xoxe.xox[bp]-[0-9]-[A-Z0-9]{163,166}",
        "ignore_case": true,
        "keywords": [
            "xoxe.xoxb-",
            "xoxe.xoxp-"
        ],
        "entropy": 2
    },
    {
        "id": "slack-config-refresh-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "xoxe-[0-9]-[A-Z0-9]{146}",
        "ignore_case": true,
        "keywords": [
            "xoxe-"
        ],
        "entropy": 2
    },
    {
        "id": "slack-legacy-bot-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "xoxb-[0-9]{8,14}-[a-zA-Z0-9]{18,26}",
        "keywords": [
            "xoxb"
        ],
        "entropy": 2
    },
    {
        "id": "slack-legacy-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "xox[os]-[0-9]+-[0-9]+-[0-9]+-[a-fA-F0-9]+",
        "keywords": [
            "xoxo",
            "xoxs"
        ],
        "entropy": 2
    },
    {
        "id": "slack-legacy-workspace-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "xox[ar]-(?:[0-9]-)?[0-9a-zA-Z]{8,48}",
        "keywords": [
            "xoxa",
            "xoxr"
        ],
        "entropy": 2
    },
    {
        "id": "slack-user-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}",
        "keywords": [
            "xoxe-",
            "xoxp-"
        ],
        "entropy": 2
    },
    {
        "id": "slack-webhook-url",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "(?:https?://)?hooks.slack.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}",
        "keywords": [
            "hooks.slack.com"
        ]
    },
    {
        "id": "snyk-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:snyk[_.-]?(?:(?:api|oauth)[_.-]?)?(?:key|token))(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "snyk"
        ]
    },
    {
        "id": "sonar-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:sonar[_.-]?(login|token))(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}((?:squ_|sqp_|sqa_)?[a-z0-9=_\\-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 2,
        "keywords": [
            "sonar"
        ]
    },
    {
        "id": "sourcegraph-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(\\b(sgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}|sgp_[a-fA-F0-9]{40}|[a-fA-F0-9]{40})\\b)(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "sgp_",
            "sourcegraph"
        ],
        "entropy": 3
    },
    {
        "id": "square-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b((?:EAAA|sq0atp-)[A-Za-z0-9_-]{22,60})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "eaaa",
            "sq0atp-"
        ],
        "entropy": 2
    },
    {
        "id": "squarespace-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:squarespace)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "squarespace"
        ]
    },
    {
        "id": "stripe-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b((?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "rk_live",
            "rk_prod",
            "rk_test",
            "sk_live",
            "sk_prod",
            "sk_test"
        ],
        "entropy": 2
    },
    {
        "id": "sumologic-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:(?:[Ss]umo|SUMO))(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "sumo"
        ],
        "entropy": 3
    },
    {
        "id": "telegram-bot-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:telegr)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{5,16}:(?:A)[a-z0-9_\\-]{34})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "telegr"
        ]
    },
    {
        "id": "travisci-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:travis)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{22})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "travis"
        ]
    },
    {
        "id": "twilio-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "SK[0-9a-fA-F]{32}",
        "keywords": [
            "sk"
        ],
        "entropy": 3
    },
    {
        "id": "twitch-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:twitch)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{30})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "twitch"
        ]
    },
    {
        "id": "twitter-access-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:twitter)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{45})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "twitter"
        ]
    },
    {
        "id": "twitter-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:twitter)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{15,25}-[a-zA-Z0-9]{20,40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "twitter"
        ]
    },
    {
        "id": "twitter-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:twitter)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{25})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "twitter"
        ]
    },
    {
        "id": "twitter-api-secret",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:twitter)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{50})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "twitter"
        ]
    },
    {
        "id": "twitter-bearer-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:twitter)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(A{22}[a-zA-Z0-9%]{80,100})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "twitter"
        ]
    },
    {
        "id": "typeform-api-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:typeform)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(tfp_[a-z0-9\\-_\\.=]{59})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "tfp_"
        ]
    },
    {
        "id": "vault-batch-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "\\b(hvb\\.[A-Za-z0-9_-]{138,300})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "group": 1,
        "keywords": [
            "hvb."
        ],
        "entropy": 4
    },
    {
        "id": "yandex-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:yandex)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(t1\\.[A-Z0-9a-z_-]+[=]{0,2}\\.[A-Z0-9a-z_-]{86}[=]{0,2})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "yandex"
        ]
    },
    {
        "id": "yandex-api-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:yandex)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(AQVN[A-Za-z0-9_\\-]{35,38})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "yandex"
        ]
    },
    {
        "id": "yandex-aws-access-token",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:yandex)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(YC[a-zA-Z0-9_\\-]{38})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "yandex"
        ]
    },
    {
        "id": "zendesk-secret-key",
        "source": "gitleaks",
        "category": "api_key",
        "replace": "[API_KEY]",
        "pattern": "[A-Za-z0-9_.-]{0,50}?(?:zendesk)(?:[ \\tA-Za-z0-9_.-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)",
        "ignore_case": true,
        "group": 1,
        "keywords": [
            "zendesk"
        ]
    },
    {
        "id": "concat-after-redacted",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\[(?:API_KEY|AWS_KEY|AWS_SECRET|GITHUB_TOKEN|SLACK_TOKEN|REDACTED)\\][\\\"'`][ \\t]*(?:\\+|\\.\\.?|\\|\\|)[ \\t]*\\\\?[ \\t]*(?:\\r?\\n[ \\t]*)?[\\\"'`]((?:[^\\\"'`\\n]{2,200}[\\\"'`][ \\t]*(?:\\+|\\.\\.?|\\|\\|)[ \\t]*\\\\?[ \\t]*(?:\\r?\\n[ \\t]*)?[\\\"'`])*[^\\\"'`\\n]{2,200})[\\\"'`]",
        "group": 1,
        "require": [
            "secret_value"
        ]
    },
    {
        "id": "concat-args-after-redacted",
        "source": "knowhub",
        "stage": "secrets",
        "category": "secret",
        "replace": "[REDACTED]",
        "pattern": "\\[(?:API_KEY|AWS_KEY|AWS_SECRET|GITHUB_TOKEN|SLACK_TOKEN|REDACTED)\\][\\\"'`][ \\t]*,[ \\t]*(?:\\r?\\n[ \\t]*)?[\\\"'`]((?:[^\\\"'`\\n]{2,200}[\\\"'`][ \\t]*,[ \\t]*(?:\\r?\\n[ \\t]*)?[\\\"'`])*[^\\\"'`\\n]{2,200})[\\\"'`]",
        "group": 1,
        "require": [
            "upper",
            "lower",
            "digit"
        ]
    },
    {
        "id": "phone-context-call",
        "source": "knowhub",
        "stage": "personal",
        "category": "phone",
        "replace": "[PHONE]",
        "pattern": "(?:\\b(?:call|ring|contact|whatsapp|viber|zap|celular|cel|telefone|fone|m[oó]vil|anrufen|appelez|appeler|dzwonic|zadzwon|numaram|numarasi|numara|telefon(?:um)?|sđt)\\b|dzwonić|zadzwoń|numarası|móvil|điện thoại|звонить|позвоните|звони|नंबर|फ़ोन|फोन|मोबाइल|โทร|هاتف|جوال|\\b(?:my|mi|meu|mon|mein|meine)[ \\t]+(?:number|n[uú]mero|num[eé]ro|nummer)\\b|llámame|llamar|мой[ \\t]+номер|номер[ \\t]+телефона|телефон|звоните|致电|致電|联系|聯繫|聯絡|联络|打给|打給|拨打|撥打|連絡|연락)[^0-9\\n+\\[(]{0,16}(\\+[0-9][0-9 \\-.()]{6,18}[0-9]|\\(?0[0-9 \\-.()]{6,18}[0-9]|\\(?[0-9]{1,5}\\)?[ \\-.][0-9 \\-.()]{2,18}[0-9]|[1-9][0-9]{7,13})(?:[^A-Za-z0-9]|$)",
        "group": 1,
        "ignore_case": true,
        "validate": "phone_digits",
        "keywords": [
            "anrufen",
            "appel",
            "call",
            "cel",
            "contact",
            "dzwoni",
            "dzwonić",
            "fone",
            "llamar",
            "llámame",
            "mein",
            "meu",
            "mi",
            "mon",
            "movil",
            "my",
            "móvil",
            "numara",
            "numarası",
            "ring",
            "sđt",
            "telefon",
            "telefone",
            "viber",
            "whatsapp",
            "zadzwo",
            "zadzwoń",
            "zap",
            "điện thoại",
            "Звони",
            "Звонить",
            "Позвоните",
            "звони",
            "звоните",
            "звонить",
            "мой",
            "позвоните",
            "телефон",
            "جوال",
            "هاتف",
            "नंबर",
            "फ़ोन",
            "फोन",
            "मोबाइल",
            "โทร",
            "打給",
            "打给",
            "拨打",
            "撥打",
            "联系",
            "联络",
            "聯絡",
            "聯繫",
            "致电",
            "致電",
            "連絡",
            "연락"
        ]
    },
    {
        "id": "bank-account-context",
        "source": "knowhub",
        "stage": "personal",
        "category": "payment_card",
        "replace": "[BANK_ACCOUNT]",
        "pattern": "(?:\\b(?:account|acct|acc|a/c|konto(?:nummer)?|kontonummer|cuenta|conta|compte|conto|rekening|clabe)(?:[ \\t_\\-]*(?:no\\.?|nr\\.?|number|num|#|n[º°o]\\.?))?\\b|账号|帳號|账户|帳戶|口座番号|普通(?:預金)?|当座(?:預金)?|계좌(?:[ \\t]*번호)?|[СсCc]ч[её]т(?:[ \\t]+получателя)?(?:[ \\t]*№)?|खाता संख्या)[\\\"']?[ \\t　]*[:：#=.]?[ \\t]*[\\\"']?([0-9](?:[ \\-]?[0-9]){5,22})(?:[^0-9A-Za-z]|$)",
        "group": 1,
        "ignore_case": true,
        "validate": "bank_account",
        "keywords": [
            "a/c",
            "acc",
            "account",
            "acct",
            "clabe",
            "compte",
            "conta",
            "conto",
            "cuenta",
            "konto",
            "rekening",
            "Счет",
            "Счёт",
            "счет",
            "счёт",
            "खाता",
            "口座番号",
            "帳戶",
            "帳號",
            "当座",
            "普通",
            "账号",
            "账户",
            "계좌"
        ]
    },
    {
        "id": "bank-account-kr",
        "source": "knowhub",
        "stage": "personal",
        "category": "payment_card",
        "replace": "[BANK_ACCOUNT]",
        "pattern": "(?:국민|신한|우리|하나|농협|기업|카카오뱅크|카카오|토스뱅크|케이뱅크|SC제일|씨티|우체국|새마을금고|수협|대구|부산|경남|광주|전북|제주)(?:은행)?[ \\t]*([0-9]{2,6}-[0-9]{2,6}-[0-9]{2,8}(?:-[0-9]{1,3})?)(?:[^0-9]|$)",
        "group": 1,
        "validate": "bank_account",
        "keywords": [
            "국민",
            "신한",
            "우리",
            "하나",
            "농협",
            "기업",
            "카카오",
            "토스",
            "케이뱅크",
            "제일",
            "씨티",
            "우체국",
            "새마을",
            "수협",
            "대구",
            "부산",
            "경남",
            "광주",
            "전북",
            "제주"
        ]
    }
];
/** The BIP-39 English word list (rules/bip39-english.txt, from the `mnemonic` package, MIT; see rules/NOTICE). */
export const BIP39_ENGLISH = "abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert alien all alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst anchor ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety any apart apology appear apple approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive arrow art artefact artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend attitude attract auction audit august aunt author auto autumn average avocado avoid awake aware away awesome awful awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic basket battle beach bean beauty because become beef before begin behave behind believe below belt bench benefit best betray better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket blast bleak bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief bright bring brisk broccoli broken bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon canoe canvas canyon capable capital captain car carbon card cargo carpet carry cart case cash casino castle casual cat catalog catch category cattle caught cause caution cave ceiling celery cement census century cereal certain chair chalk champion change chaos chapter charge chase chat cheap check cheese chef cherry chest chicken chief child chimney choice choose chronic chuckle chunk churn cigar cinnamon circle citizen city civil claim clap clarify claw clay clean clerk clever click client cliff climb clinic clip clock clog close cloth cloud clown club clump cluster clutch coach coast coconut code coffee coil coin collect color column combine come comfort comic common company concert conduct confirm congress connect consider control convince cook cool copper copy coral core corn correct cost cotton couch country couple course cousin cover coyote crack cradle craft cram crane crash crater crawl crazy cream credit creek crew cricket crime crisp critic crop cross crouch crowd crucial cruel cruise crumble crunch crush cry crystal cube culture cup cupboard curious current curtain curve cushion custom cute cycle dad damage damp dance danger daring dash daughter dawn day deal debate debris decade december decide decline decorate decrease deer defense define defy degree delay deliver demand demise denial dentist deny depart depend deposit depth deputy derive describe desert design desk despair destroy detail detect develop device devote diagram dial diamond diary dice diesel diet differ digital dignity dilemma dinner dinosaur direct dirt disagree discover disease dish dismiss disorder display distance divert divide divorce dizzy doctor document dog doll dolphin domain donate donkey donor door dose double dove draft dragon drama drastic draw dream dress drift drill drink drip drive drop drum dry duck dumb dune during dust dutch duty dwarf dynamic eager eagle early earn earth easily east easy echo ecology economy edge edit educate effort egg eight either elbow elder electric elegant element elephant elevator elite else embark embody embrace emerge emotion employ empower empty enable enact end endless endorse enemy energy enforce engage engine enhance enjoy enlist enough enrich enroll ensure enter entire entry envelope episode equal equip era erase erode erosion error erupt escape essay essence estate eternal ethics evidence evil evoke evolve exact example excess exchange excite exclude excuse execute exercise exhaust exhibit exile exist exit exotic expand expect expire explain expose express extend extra eye eyebrow fabric face faculty fade faint faith fall false fame family famous fan fancy fantasy farm fashion fat fatal father fatigue fault favorite feature february federal fee feed feel female fence festival fetch fever few fiber fiction field figure file film filter final find fine finger finish fire firm first fiscal fish fit fitness fix flag flame flash flat flavor flee flight flip float flock floor flower fluid flush fly foam focus fog foil fold follow food foot force forest forget fork fortune forum forward fossil foster found fox fragile frame frequent fresh friend fringe frog front frost frown frozen fruit fuel fun funny furnace fury future gadget gain galaxy gallery game gap garage garbage garden garlic garment gas gasp gate gather gauge gaze general genius genre gentle genuine gesture ghost giant gift giggle ginger giraffe girl give glad glance glare glass glide glimpse globe gloom glory glove glow glue goat goddess gold good goose gorilla gospel gossip govern gown grab grace grain grant grape grass gravity great green grid grief grit grocery group grow grunt guard guess guide guilt guitar gun gym habit hair half hammer hamster hand happy harbor hard harsh harvest hat have hawk hazard head health heart heavy hedgehog height hello helmet help hen hero hidden high hill hint hip hire history hobby hockey hold hole holiday hollow home honey hood hope horn horror horse hospital host hotel hour hover hub huge human humble humor hundred hungry hunt hurdle hurry hurt husband hybrid ice icon idea identify idle ignore ill illegal illness image imitate immense immune impact impose improve impulse inch include income increase index indicate indoor industry infant inflict inform inhale inherit initial inject injury inmate inner innocent input inquiry insane insect inside inspire install intact interest into invest invite involve iron island isolate issue item ivory jacket jaguar jar jazz jealous jeans jelly jewel job join joke journey joy judge juice jump jungle junior junk just kangaroo keen keep ketchup key kick kid kidney kind kingdom kiss kit kitchen kite kitten kiwi knee knife knock know lab label labor ladder lady lake lamp language laptop large later latin laugh laundry lava law lawn lawsuit layer lazy leader leaf learn leave lecture left leg legal legend leisure lemon lend length lens leopard lesson letter level liar liberty library license life lift light like limb limit link lion liquid list little live lizard load loan lobster local lock logic lonely long loop lottery loud lounge love loyal lucky luggage lumber lunar lunch luxury lyrics machine mad magic magnet maid mail main major make mammal man manage mandate mango mansion manual maple marble march margin marine market marriage mask mass master match material math matrix matter maximum maze meadow mean measure meat mechanic medal media melody melt member memory mention menu mercy merge merit merry mesh message metal method middle midnight milk million mimic mind minimum minor minute miracle mirror misery miss mistake mix mixed mixture mobile model modify mom moment monitor monkey monster month moon moral more morning mosquito mother motion motor mountain mouse move movie much muffin mule multiply muscle museum mushroom music must mutual myself mystery myth naive name napkin narrow nasty nation nature near neck need negative neglect neither nephew nerve nest net network neutral never news next nice night noble noise nominee noodle normal north nose notable note nothing notice novel now nuclear number nurse nut oak obey object oblige obscure observe obtain obvious occur ocean october odor off offer office often oil okay old olive olympic omit once one onion online only open opera opinion oppose option orange orbit orchard order ordinary organ orient original orphan ostrich other outdoor outer output outside oval oven over own owner oxygen oyster ozone pact paddle page pair palace palm panda panel panic panther paper parade parent park parrot party pass patch path patient patrol pattern pause pave payment peace peanut pear peasant pelican pen penalty pencil people pepper perfect permit person pet phone photo phrase physical piano picnic picture piece pig pigeon pill pilot pink pioneer pipe pistol pitch pizza place planet plastic plate play please pledge pluck plug plunge poem poet point polar pole police pond pony pool popular portion position possible post potato pottery poverty powder power practice praise predict prefer prepare present pretty prevent price pride primary print priority prison private prize problem process produce profit program project promote proof property prosper protect proud provide public pudding pull pulp pulse pumpkin punch pupil puppy purchase purity purpose purse push put puzzle pyramid quality quantum quarter question quick quit quiz quote rabbit raccoon race rack radar radio rail rain raise rally ramp ranch random range rapid rare rate rather raven raw razor ready real reason rebel rebuild recall receive recipe record recycle reduce reflect reform refuse region regret regular reject relax release relief rely remain remember remind remove render renew rent reopen repair repeat replace report require rescue resemble resist resource response result retire retreat return reunion reveal review reward rhythm rib ribbon rice rich ride ridge rifle right rigid ring riot ripple risk ritual rival river road roast robot robust rocket romance roof rookie room rose rotate rough round route royal rubber rude rug rule run runway rural sad saddle sadness safe sail salad salmon salon salt salute same sample sand satisfy satoshi sauce sausage save say scale scan scare scatter scene scheme school science scissors scorpion scout scrap screen script scrub sea search season seat second secret section security seed seek segment select sell seminar senior sense sentence series service session settle setup seven shadow shaft shallow share shed shell sheriff shield shift shine ship shiver shock shoe shoot shop short shoulder shove shrimp shrug shuffle shy sibling sick side siege sight sign silent silk silly silver similar simple since sing siren sister situate six size skate sketch ski skill skin skirt skull slab slam sleep slender slice slide slight slim slogan slot slow slush small smart smile smoke smooth snack snake snap sniff snow soap soccer social sock soda soft solar soldier solid solution solve someone song soon sorry sort soul sound soup source south space spare spatial spawn speak special speed spell spend sphere spice spider spike spin spirit split spoil sponsor spoon sport spot spray spread spring spy square squeeze squirrel stable stadium staff stage stairs stamp stand start state stay steak steel stem step stereo stick still sting stock stomach stone stool story stove strategy street strike strong struggle student stuff stumble style subject submit subway success such sudden suffer sugar suggest suit summer sun sunny sunset super supply supreme sure surface surge surprise surround survey suspect sustain swallow swamp swap swarm swear sweet swift swim swing switch sword symbol symptom syrup system table tackle tag tail talent talk tank tape target task taste tattoo taxi teach team tell ten tenant tennis tent term test text thank that theme then theory there they thing this thought three thrive throw thumb thunder ticket tide tiger tilt timber time tiny tip tired tissue title toast tobacco today toddler toe together toilet token tomato tomorrow tone tongue tonight tool tooth top topic topple torch tornado tortoise toss total tourist toward tower town toy track trade traffic tragic train transfer trap trash travel tray treat tree trend trial tribe trick trigger trim trip trophy trouble truck true truly trumpet trust truth try tube tuition tumble tuna tunnel turkey turn turtle twelve twenty twice twin twist two type typical ugly umbrella unable unaware uncle uncover under undo unfair unfold unhappy uniform unique unit universe unknown unlock until unusual unveil update upgrade uphold upon upper upset urban urge usage use used useful useless usual utility vacant vacuum vague valid valley valve van vanish vapor various vast vault vehicle velvet vendor venture venue verb verify version very vessel veteran viable vibrant vicious victory video view village vintage violin virtual virus visa visit visual vital vivid vocal voice void volcano volume vote voyage wage wagon wait walk wall walnut want warfare warm warrior wash wasp waste water wave way wealth weapon wear weasel weather web wedding weekend weird welcome west wet whale what wheat wheel when where whip whisper wide width wife wild will win window wine wing wink winner winter wire wisdom wise wish witness wolf woman wonder wood wool word work world worry worth wrap wreck wrestle wrist write wrong yard year yellow you young youth zebra zero zone zoo".split(" ");
/** Version markers: a dotted quad right after one of these is a version, not an IPv4 address. */
const VERSION_CONTEXT = /(?:\bv|\bversions?|\bver\.?|\brelease|\bbuild|\brev(?:ision)?|\bnode|\bpython|\bchrome|\bfirefox|版本号?|バージョン|버전|[=<>~^]=?)\s*[:=：]?\s*$/i;
/** A key naming an address right before a dotted quad (`client_ip=`, `host: `): an address even after `=`. */
const ADDRESS_KEY = /(?:\b|_)(?:ip|ipv4|addr|address|host|server|gateway|proxy|peer|remote|nameserver)["']?\s*[:=]\s*["']?$/i;
/** A package name joined by a dash (`pyerfa-2.0.1.5`) or a section word (`section 7.1.1.1`, `§ 4.2.1.3`). */
const NUMBERING_CONTEXT = /(?:[A-Za-z]-|\b(?:sections?|sect?\.|chapter|clause|appendix|paragraph|para\.)\s*|§\s*)$/i;
/** Shared, CI and system accounts rather than people (`/home/runner`, `C:\Users\Public`, `/Users/Shared`). */
const GENERIC_ACCOUNTS = new Set([
    "runner",
    "runneradmin",
    "ubuntu",
    "debian",
    "ec2-user",
    "centos",
    "fedora",
    "vagrant",
    "node",
    "circleci",
    "jenkins",
    "travis",
    "gitlab-runner",
    "buildkite-agent",
    "codespace",
    "vscode",
    "shared",
    "public",
    "default",
    "guest",
]);
const isGenericAccount = (user) => GENERIC_ACCOUNTS.has(asciiLower(user));
/** A password slot that holds a variable, not a password: `${DB_PASSWORD}`, `$PGPASS`, `%PASSWORD%`, `<password>`, `{{ .Password }}`. */
const isVariableReference = (v) => /^(?:\$\{[^{}]+\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|<[^<>]+>|\{\{[^{}]+\}\})$/.test(v);
const UNIT_AFTER = /^\s?(?:bytes?|[kmgt]i?b|rows?|records?|items?|entries|lines?|files?|blocks?|pages?|tokens?|chars?|characters?|words?|messages?|events?|requests?|docs?|documents?|objects?|keys?|ms|ns|us|µs|sec|seconds?|ticks?|cycles?|iterations?|steps?|samples?)\b/i;
const COUNTER_BEFORE = /\b(?:inode|offset|size|count|total|length|len|bytes|rows|records|lsn|seq|sequence|block|height|nonce|epoch|timestamp|ts|checksum|crc)\s*[:=#]?\s*$/i;
/**
 * A bare 11-digit number that counts something (`13812345678 bytes`, `inode 13802214457`): a unit
 * right after it or a counter word in the 16 characters before it. Numbers written with separators
 * keep their phone reading.
 */
function isQuantity(m, offset, input) {
    return /^\d+$/.test(m) && (UNIT_AFTER.test(input.slice(offset + m.length)) || COUNTER_BEFORE.test(before16(input, offset)));
}
/** The 16 characters before `offset`, the window the version and address checks read. */
const before16 = (input, offset) => input.slice(Math.max(0, offset - 16), offset);
function isPublicishIPv4(ip) {
    const [a, b] = ip.split(".").map(Number);
    if (a === 127)
        return false; // loopback: not identifying, very common in technical text
    if (ip === "0.0.0.0")
        return false; // "listen on all interfaces"
    if (a === 255 && b === 255)
        return false; // netmasks / broadcast
    return true;
}
/**
 * Code rather than a value: a call or subscript (`self.session.get(...)`, `sys.argv[2]`) or a
 * lower-case dotted or snake_case name without digits (`self._token`, `aws_secret_access_key`).
 */
function isCodeReference(v) {
    const bare = v.replace(/[)\]}]+$/, ""); // `f(key=aws_secret_access_key)`
    return /^[A-Za-z_$][A-Za-z0-9_$.]*[([]/.test(v) || (/^[a-z_][a-z_.]*$/.test(bare) && /[_.]/.test(bare));
}
function isLikelySecretValue(v) {
    if (/^[$<{%[]/.test(v))
        return false; // ${VAR}, <placeholder>, {{tpl}}, %VAR%, [REDACTED]
    if (/process\.env|os\.environ|getenv/i.test(v))
        return false;
    if (/^(?:string|number|boolean|null|undefined|none|true|false|required|optional|secret|password|token|str|int)$/i.test(v)) {
        return false; // type annotations and placeholders
    }
    if (isCodeReference(v))
        return false;
    return /\d/.test(v) || /[!@#%^&*+/=~-]/.test(v) || v.length >= 20;
}
/** Luhn checksum over a list of digits. */
function luhnOk(digits) {
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
        let v = digits[digits.length - 1 - i];
        if (i % 2 === 1) {
            v *= 2;
            if (v > 9)
                v -= 9;
        }
        sum += v;
    }
    return sum % 10 === 0;
}
/**
 * A payment card: 13-19 digits with a known issuer prefix and length, a valid Luhn digit, and
 * either no separators or one kind of separator between groups of 3+ digits (so tables of small
 * numbers and timestamps are not cards).
 */
function isPaymentCard(m) {
    const digits = [...m].filter((c) => c >= "0" && c <= "9").map(Number);
    const seps = [...m].filter((c) => !(c >= "0" && c <= "9"));
    if (seps.some((c) => c !== seps[0]) || m.split(/[ -]/).some((g) => g.length < 3))
        return false;
    const n = digits.length;
    const p2 = digits[0] * 10 + digits[1];
    const p3 = p2 * 10 + digits[2];
    const p4 = p3 * 10 + digits[3];
    let issuer = false;
    switch (digits[0]) {
        case 4:
            issuer = [13, 16, 19].includes(n);
            break;
        case 5:
            issuer = (p2 >= 51 && p2 <= 55 && n === 16) || (p3 === 508 && n >= 16 && n <= 19);
            break;
        case 2:
            issuer = (p4 >= 2221 && p4 <= 2720 && n === 16) || (p4 >= 2200 && p4 <= 2204 && n >= 16 && n <= 19);
            break;
        case 3:
            issuer = ((p2 === 34 || p2 === 37) && n === 15) || (p2 === 35 && n >= 16 && n <= 19) ||
                (((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38) && n >= 14 && n <= 19);
            break;
        case 6:
            issuer = (p2 === 60 || p2 === 65 || (p3 >= 644 && p3 <= 649) || p2 === 62) && n >= 16 && n <= 19;
            break;
    }
    return issuer && luhnOk(digits);
}
/** A Chinese resident identity number: the ISO 7064 MOD 11-2 check character must match. */
function isCnResidentId(m) {
    const W = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    if (m.length !== 18)
        return false;
    return "10X98765432"[weighted(m, W) % 11] === m[17].toUpperCase();
}
/**
 * An IPv6 address with a real shape: eight groups, or one `::` with at least two groups, a group
 * of 3+ digits and a decimal digit somewhere (so `a::b`, `dead::beef` in code are kept), and not
 * loopback.
 */
function isRealIPv6(m) {
    const groups = m.split(":").filter((g) => g !== "");
    const compressed = m.split("::").length - 1;
    const shape = compressed === 0 ? groups.length === 8 : compressed === 1 ? groups.length >= 2 && groups.length <= 7 && groups.some((g) => g.length >= 3) : false;
    const loopback = groups.length > 0 && groups.slice(0, -1).every((g) => /^0*$/.test(g)) && /^0*1$/.test(groups[groups.length - 1]);
    return shape && /\d/.test(m) && !loopback;
}
/** Patterns of known secrets, for text found by decoding base64. */
const KNOWN_SECRET = [
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY/,
    /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/,
    /\b(?:sk|rk)_live_[A-Za-z0-9]{16,}/,
    /\b(?:AKIA|ASIA)[0-9A-Z]{16}/,
    /\bgh[pousr]_[A-Za-z0-9]{30,}/,
    /\bgithub_pat_[A-Za-z0-9_]{22,}/,
    /\bglpat-[A-Za-z0-9_-]{20,}/,
    /\bxox[abposre]-[A-Za-z0-9-]{10,}/,
    /\bAIza[0-9A-Za-z_-]{35}/,
    /\bnpm_[A-Za-z0-9]{36}/,
    /\bpypi-[A-Za-z0-9_-]{32,}/,
    /\bhf_[A-Za-z0-9]{30,}/,
    /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/,
    /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
    /[a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:[^\s@/]+@/,
    /(?:password|passwd|secret|token|api[_-]?key)\s*[:=]\s*\S{6,}/i,
];
/**
 * Base64 (standard or URL-safe) that decodes to readable text holding a known secret. Runs longer
 * than 4 KiB are not decoded; every run is decoded once, so the cost stays linear.
 */
function isEncodedSecret(run) {
    if (run.length > 4096)
        return false;
    const bytes = decodeBase64(run);
    const text = bytes ? printableText(bytes) : undefined;
    return text !== undefined && KNOWN_SECRET.some((p) => p.test(text));
}
/** A `key=value,...` mount spec naming where a secret comes from (`docker build --secret id=npmrc,src=...`). */
const isMountSpec = (v) => /^(?:id|src|source|env|type|target|dst|required)=/.test(v);
/** The BIP-39 English word list, for lookups (see secret-rules.ts). */
const BIP39_WORDS = new Set(BIP39_ENGLISH);
/** The shortest seed phrase a wallet writes. */
const SEED_WORDS = 12;
/**
 * `run` (lower-case words between separators) with each stretch of at least SEED_WORDS BIP-39
 * words replaced by `[REDACTED]`; null when no stretch is that long.
 */
function maskSeedPhrases(run) {
    const words = [...run.matchAll(/[a-z]+/g)].map((w) => ({ from: w.index, to: w.index + w[0].length, listed: BIP39_WORDS.has(w[0]) }));
    let out = "";
    let copied = 0;
    let start = 0;
    for (let k = 0; k <= words.length; k++) {
        if (words[k]?.listed)
            continue;
        const first = words[start];
        const last = words[k - 1];
        if (k - start >= SEED_WORDS && first && last) {
            out += run.slice(copied, first.from) + "[REDACTED]";
            copied = last.to;
        }
        start = k + 1;
    }
    return copied === 0 ? null : out + run.slice(copied);
}
/** Values of flags, query parameters and `-u user:pass` that are placeholders, not secrets. */
function isPlaceholder(v) {
    return v === "" || /^[$<{%[-]/.test(v);
}
/**
 * Invisible characters that can split a secret from a pattern (zero-width, bidi controls, tag
 * characters), removed before matching. Kept where they do real work: a joiner or variation
 * selector after a non-ASCII character (emoji sequences) and tag characters after a black flag
 * (subdivision flags).
 */
function stripInvisible(text) {
    if (!INVISIBLE_TEST.test(text))
        return text;
    let out = "";
    let prev = "\0";
    let inFlag = false;
    for (const c of text) {
        const cp = c.codePointAt(0);
        let keep;
        if (cp >= 0xe0020 && cp <= 0xe007f) {
            inFlag = inFlag || prev === "\u{1F3F4}";
            keep = inFlag;
        }
        else if (cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) {
            keep = prev.codePointAt(0) > 0x7f;
        }
        else {
            inFlag = false;
            keep = !isInvisible(c);
        }
        if (keep) {
            out += c;
            prev = c;
        }
    }
    return out;
}
/** The prefixes of provider tokens that a writer may split (`ghp_`, `sk-`, `AKIA`, ...). */
const TOKEN_PREFIX = String.raw `(?:gh[pousr]_|github_pat_|glpat-|xox[abposre]-|xapp-|sk-|sk_live_|rk_live_|npm_|pypi-|hf_|AIza|AKIA|ASIA|SG\.)`;
/**
 * A token with a known prefix at the end of a line, continued alone on the next line(s): the line
 * break is removed so the token rules see the whole token.
 */
const SPLIT_TOKEN = new RegExp(String.raw `(?<![A-Za-z0-9_-])(${TOKEN_PREFIX}[A-Za-z0-9_\-.]{6,}[ \t]*\r?\n[ \t]*([A-Za-z0-9_\-.]{4,}))(?=[ \t]*(?:\r?\n|$))`, "g");
/**
 * A string literal opening with a known token prefix, concatenated with the next literal
 * (`"sk-proj-" + "Xa9..."`, Python's `"ghp_" "abc"`, PHP `.`, Lua `..`, SQL `||`, across a line
 * break too): the two literals are joined so the token rules see the whole token.
 */
const SPLIT_LITERAL = new RegExp(String.raw `(["'` + "`" + String.raw `])(${TOKEN_PREFIX}[A-Za-z0-9_\-.]*)["'` + "`" + String.raw `][ \t]*(?:\+|\.\.?|\|\|)?[ \t]*(?:\r?\n[ \t]*(?:\+|\.\.?|\|\|)?[ \t]*)?["'` + "`" + String.raw `]([A-Za-z0-9_\-.]{4,})["'` + "`" + String.raw `]`, "g");
/**
 * A run of short groups, each followed by one space: where a token spelled out character by
 * character (`g h p _ 1 A …`) or spaced every few characters (`xoxp-152 36581199 …`) can hide.
 */
const SPACED_RUN = /(?<![A-Za-z0-9_\-.+/=])(?:[A-Za-z0-9_\-.+/=]{1,8} ){2,}[A-Za-z0-9_\-.+/=]{1,8}/g;
const STARTS_WITH_PREFIX = new RegExp(`^${TOKEN_PREFIX}`);
/**
 * Where in a run of spaced groups a prefixed token starts and ends (group indices, inclusive):
 * from the first group at which the joined rest opens with a token prefix, the groups as long as
 * that first one (the writer's spacing), then one shorter last group if it ends the run. `null`
 * unless the joined token holds 20 or more characters, an upper-case letter or a digit after its
 * prefix, and three groups or more.
 */
function spacedToken(groups) {
    // A prefix is at most 11 characters, so the first 16 of the rest tell (a long run of prose words
    // stays linear).
    const head = (i) => {
        let h = "";
        for (let j = i; j < groups.length && h.length < 16; j++)
            h += groups[j];
        return h;
    };
    const start = groups.findIndex((_, i) => STARTS_WITH_PREFIX.test(head(i)));
    if (start < 0)
        return null;
    const width = groups[start].length;
    let end = start;
    while (end + 1 < groups.length && groups[end + 1].length === width)
        end++;
    if (end + 2 === groups.length && groups[end + 1].length < width)
        end++;
    const joined = groups.slice(start, end + 1).join("");
    const prefix = STARTS_WITH_PREFIX.exec(joined)?.[0].length ?? 0;
    return end - start >= 2 && joined.length >= 20 && /[0-9A-Z]/.test(joined.slice(prefix)) ? [start, end] : null;
}
/** Joins a prefixed token written with spaces inside it (see `SPACED_RUN`), so the token rules see the whole token. */
function joinSpacedTokens(text) {
    return text.replace(SPACED_RUN, (run) => {
        const groups = run.split(" ");
        const span = spacedToken(groups);
        if (!span)
            return run;
        const [start, end] = span;
        return [...groups.slice(0, start), groups.slice(start, end + 1).join(""), ...groups.slice(end + 1)].join(" ");
    });
}
/**
 * Joins tokens split across lines or string literals (up to three breaks per token) or written
 * with spaces inside them.
 */
function joinSplitTokens(text) {
    let cur = joinSpacedTokens(text);
    for (let i = 0; i < 3; i++) {
        let changed = false;
        cur = cur.replace(SPLIT_TOKEN, (m, _whole, cont) => {
            if (!/[0-9A-Z]/.test(cont))
                return m;
            changed = true;
            return m.replace(/\s+/g, "");
        });
        cur = cur.replace(SPLIT_LITERAL, (m, q, head, cont) => {
            if (!/[0-9A-Z]/.test(cont))
                return m;
            changed = true;
            return `${q}${head}${cont}${q}`;
        });
        if (!changed)
            break;
    }
    return cur;
}
/**
 * Header cells that name a column of secrets in a table (Markdown, CSV, TSV): the values under them
 * are secrets whatever they look like, which no pattern over one cell can know.
 */
function isSecretColumn(cell) {
    const c = cell.trim().replace(/^["'`* ]+|["'`* ]+$/g, "").toLowerCase();
    const exact = [
        "password", "passwd", "pwd", "pass", "passphrase", "passcode", "pin", "secret", "token", "api key",
        "apikey", "api_key", "api-key", "access token", "access_token", "secret key", "secret_key", "client secret",
        "client_secret", "private key", "private_key", "密码", "密碼", "口令", "密钥", "密鑰", "秘钥", "パスワード",
        "暗証番号", "비밀번호", "암호", "contraseña", "contrasena", "clave", "passwort", "kennwort", "senha",
        "mot de passe", "mdp", "пароль", "wachtwoord", "hasło", "haslo", "şifre", "sifre", "parola",
    ];
    const words = c.split(/\s+/).filter(Boolean).length;
    return (exact.includes(c) ||
        ([...c].length <= 24 &&
            words <= 2 &&
            (c.endsWith("_password") || c.endsWith(" password") || c.endsWith("-password") || c.endsWith("密码"))));
}
/** A cell's value that stands for no secret: empty, a mask (`****`, `-`), a placeholder. */
function isMaskedCell(v) {
    const lower = v.toLowerCase();
    return (v === "" ||
        /^[$<{%[]/.test(v) ||
        /^[*•·xX\-—_. ]+$/.test(v) ||
        ["n/a", "na", "none", "null", "(hidden)", "hidden", "redacted", "same", "同上", "无", "無"].includes(lower));
}
/** The raw cells of a table row split at `delim` (double-quoted cells keep their delimiters). */
function splitCells(line, delim) {
    const cells = [];
    let start = 0;
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
        const c = line[i];
        if (c === '"' && delim !== "|")
            quoted = !quoted;
        else if (c === delim && !quoted) {
            cells.push(line.slice(start, i));
            start = i + 1;
        }
    }
    cells.push(line.slice(start));
    return cells;
}
/** The delimiter of a table line: `|` for Markdown rows, else a tab, else a comma, else `;`. */
function tableDelimiter(line) {
    const t = line.trim();
    if (t.startsWith("|") && (t.match(/\|/g) ?? []).length >= 3)
        return "|";
    return ["\t", ",", ";"].find((d) => line.includes(d));
}
/**
 * Replaces the values in the columns of a table whose header names a secret (`| user | password |`,
 * `username,password`); `count` is called once a cell (category `secret`). As in Rust.
 */
function maskSecretColumns(text, count) {
    if (!/[|,\t;]/.test(text))
        return text;
    const lines = text.split("\n");
    let changed = false;
    let i = 0;
    while (i < lines.length) {
        const line = lines[i];
        i++;
        const delim = tableDelimiter(line);
        if (delim === undefined)
            continue;
        // Only a table's first row is its header (a schema table lists `password` as a field).
        if (i >= 2 && tableDelimiter(lines[i - 2]) === delim)
            continue;
        const header = splitCells(line.replace(/\r+$/, ""), delim);
        const secret = header.flatMap((c, k) => (isSecretColumn(c) ? [[k, c.trim().toLowerCase()]] : []));
        if (secret.length === 0 || header.length < 2)
            continue;
        // A header is a row of short names; prose with a comma and code (`f(user, password)`) are not.
        const names = header.every((c) => [...c.trim()].length <= 32 && c.split(/\s+/).filter(Boolean).length <= 3 && !/[(){}[\]=:<>]/.test(c));
        if (delim !== "|" && !names)
            continue;
        while (i < lines.length) {
            const row = lines[i];
            const body = row.replace(/\r+$/, "");
            const cells = splitCells(body, delim);
            if (tableDelimiter(row) !== delim || cells.length !== header.length)
                break;
            i++;
            if (cells.every((c) => /^[-: ]*$/.test(c.trim())))
                continue; // the `|---|---|` rule under a Markdown header
            let masked = false;
            for (const [k, name] of secret) {
                const v = cells[k].trim().replace(/^"+|"+$/g, "").trim();
                if (isMaskedCell(v) || v.toLowerCase() === name)
                    continue;
                cells[k] = cells[k].replace(v, "[REDACTED]");
                count?.("secret_column");
                masked = true;
            }
            if (masked) {
                lines[i - 1] = cells.join(delim) + row.slice(body.length);
                changed = true;
            }
        }
    }
    return changed ? lines.join("\n") : text;
}
// ---------------------------------------------------------------------------------------------
// Check digits and the rule file (the twins of crates/knowhub-core/src/checksum.rs and
// secret_rules.rs)
// ---------------------------------------------------------------------------------------------
/** The ASCII digits and letters of `s`, upper-cased, separators dropped. */
function alnum(s) {
    return s.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
}
const isDigits = (s) => /^[0-9]*$/.test(s);
/** Whether `dd`/`mm` can be a day and a month. */
const dayMonth = (dd, mm) => dd >= 1 && dd <= 31 && mm >= 1 && mm <= 12;
/** The sum of the digits `b` times the weights `w`, pairwise (`w` as long as the part weighed). */
function weighted(b, w) {
    let sum = 0;
    for (let i = 0; i < w.length; i++)
        sum += Number(b[i]) * w[i];
    return sum;
}
/** A Chinese resident identity number (separators allowed): plausible birth date, MOD 11-2 check. */
function checkCnId(s) {
    const b = alnum(s);
    if (b.length !== 18 || !isDigits(b.slice(0, 17)))
        return false;
    const year = Number(b.slice(6, 10));
    if (year < 1900 || year > 2099 || !dayMonth(Number(b.slice(12, 14)), Number(b.slice(10, 12))))
        return false;
    return isCnResidentId(b);
}
/** A Hong Kong identity card number, `A123456(3)`: the mod 11 check character (`A` is 10). */
function checkHkid(s) {
    const b = alnum(s);
    const letters = /^[A-Z]*/.exec(b)[0].length;
    if (letters < 1 || letters > 2 || b.length !== letters + 7 || !isDigits(b.slice(letters, letters + 6)))
        return false;
    const letter = (c) => c.charCodeAt(0) - 65 + 10;
    let sum = letters === 1 ? 36 * 9 + letter(b[0]) * 8 : letter(b[0]) * 9 + letter(b[1]) * 8;
    for (let i = 0; i < 6; i++)
        sum += Number(b[letters + i]) * (7 - i);
    const check = (11 - (sum % 11)) % 11;
    return b[letters + 6] === (check === 10 ? "A" : String(check));
}
/** A Taiwanese national id, `A123456789`: letter code and digits, weighted, sum to a multiple of 10. */
function checkTwId(s) {
    const CODES = [10, 11, 12, 13, 14, 15, 16, 17, 34, 18, 19, 20, 21, 22, 35, 23, 24, 25, 26, 27, 28, 29, 32, 30, 31, 33];
    const b = alnum(s);
    if (b.length !== 10 || !/^[A-Z][0-9]{9}$/.test(b))
        return false;
    const code = CODES[b.charCodeAt(0) - 65];
    let sum = Math.floor(code / 10) + (code % 10) * 9;
    for (let i = 0; i < 9; i++)
        sum += Number(b[1 + i]) * (i < 8 ? 8 - i : 1);
    return sum % 10 === 0;
}
/** A Japanese individual number (My Number): twelve digits, the last a mod 11 check digit. */
function checkJpMyNumber(s) {
    const b = alnum(s);
    if (b.length !== 12 || !isDigits(b))
        return false;
    let sum = 0;
    for (let n = 1; n <= 11; n++)
        sum += Number(b[11 - n]) * (n <= 6 ? n + 1 : n - 5);
    const r = sum % 11;
    return Number(b[11]) === (r <= 1 ? 0 : 11 - r);
}
/** A South Korean resident registration number, `YYMMDD-GNNNNNN`: the mod 11 check digit. */
function checkKrRrn(s) {
    const W = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
    const b = alnum(s);
    if (b.length !== 13 || !isDigits(b))
        return false;
    return (11 - (weighted(b, W) % 11)) % 10 === Number(b[12]);
}
/** A US social security number that could be issued: area not 000, 666 or 9xx, group not 00, serial not 0000. */
function checkUsSsn(s) {
    const b = alnum(s);
    if (b.length !== 9 || !isDigits(b))
        return false;
    const area = b.slice(0, 3);
    return area !== "000" && area !== "666" && area[0] !== "9" && b.slice(3, 5) !== "00" && b.slice(5) !== "0000";
}
/** IBAN lengths by country (ISO 13616 registry). */
const IBAN_LENGTHS = {
    AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, CH: 21, CR: 22, CY: 28,
    CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23,
    GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28,
    LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15,
    PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TN: 24,
    TR: 26, UA: 29, VG: 24, XK: 20,
};
/** An IBAN (spaces allowed): the country's length and the mod 97 remainder 1. */
function checkIban(s) {
    const b = alnum(s);
    if (b.length < 2 || IBAN_LENGTHS[b.slice(0, 2)] !== b.length)
        return false;
    let rem = 0;
    for (const c of b.slice(4) + b.slice(0, 4)) {
        const v = c >= "0" && c <= "9" ? Number(c) : c.charCodeAt(0) - 65 + 10;
        rem = v >= 10 ? (rem * 100 + v) % 97 : (rem * 10 + v) % 97;
    }
    return rem === 1;
}
/** Base64 of `user:password` (a Docker config `auth`). */
function checkBase64UserPass(s) {
    const bytes = decodeBase64(s);
    const text = bytes ? printableText(bytes) : undefined;
    if (text === undefined)
        return false;
    const i = text.indexOf(":");
    return i > 0 && i < text.length - 1;
}
/**
 * A UK National Insurance number, `AB123456C` or `AB 12 34 56 C`: no check digit, so the allocation
 * rules do the work (neither prefix letter D, F, I, Q, U or V, the second not O, never BG, GB, KN,
 * NK, NT, TN or ZZ).
 */
function checkUkNino(s) {
    const b = alnum(s);
    if (!/^[A-Z]{2}\d{6}[A-D]$/.test(b))
        return false;
    const [p, q] = [b.charAt(0), b.charAt(1)];
    const letterOk = (c) => !"DFIQUV".includes(c);
    return letterOk(p) && letterOk(q) && q !== "O" && !["BG", "GB", "KN", "NK", "NT", "TN", "ZZ"].includes(p + q);
}
/** A Spanish DNI (`12345678Z`) or NIE (`X1234567L`): the number mod 23 picks the check letter. */
function checkEsDni(s) {
    const b = alnum(s);
    if (!/^[0-9XYZ][0-9]{7}[A-Z]$/.test(b))
        return false;
    const lead = b[0] === "X" ? "0" : b[0] === "Y" ? "1" : b[0] === "Z" ? "2" : b[0];
    const n = Number(lead + b.slice(1, 8));
    return "TRWAGMYFPDXBNJZSQVHLCKE"[n % 23] === b[8];
}
/**
 * A French social security number (NIR): sex, year, a month that can occur (01-12, or 20 and
 * above), department (Corsica `2A`/`2B` count as 19 and 18), and the key, 97 minus the first
 * thirteen digits mod 97.
 */
function checkFrNir(s) {
    const b = alnum(s);
    if (b.length !== 15 || !"123478".includes(b[0]))
        return false;
    const dept = b.slice(5, 7);
    const digits = b.slice(0, 5) + (dept === "2A" ? "19" : dept === "2B" ? "18" : dept) + b.slice(7);
    if (!isDigits(digits))
        return false;
    const month = Number(digits.slice(3, 5));
    if (month === 0 || (month >= 13 && month < 20))
        return false;
    return Number(digits.slice(13)) === 97 - Number(BigInt(digits.slice(0, 13)) % 97n);
}
/** A Dutch citizen service number (BSN): nine digits passing the eleven test. */
function checkNlBsn(s) {
    const b = alnum(s);
    if (b.length !== 9 || !isDigits(b))
        return false;
    let sum = -Number(b[8]);
    for (let i = 0; i < 8; i++)
        sum += Number(b[i]) * (9 - i);
    return sum > 0 && sum % 11 === 0;
}
/** An Italian tax code (codice fiscale): structure, day and check letter; digits may be letters LMNPQRSTUV. */
function checkItCodiceFiscale(s) {
    const ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
    const b = alnum(s);
    if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(b))
        return false;
    const subst = (c) => (/[0-9]/.test(c) ? Number(c) : "LMNPQRSTUV".indexOf(c));
    const day = subst(b[9]) * 10 + subst(b[10]);
    if (!((day >= 1 && day <= 31) || (day >= 41 && day <= 71)))
        return false;
    const value = (c) => (/[0-9]/.test(c) ? Number(c) : c.charCodeAt(0) - 65);
    let sum = 0;
    for (let i = 0; i < 15; i++)
        sum += i % 2 === 0 ? ODD[value(b[i])] : value(b[i]);
    return b[15] === String.fromCharCode(65 + (sum % 26));
}
/**
 * A German tax identification number (Steuer-ID): eleven digits, the first not 0, exactly one of
 * the first ten repeated (twice or three times), and the ISO 7064 MOD 11,10 check digit.
 */
function checkDeSteuerId(s) {
    const b = alnum(s);
    if (b.length !== 11 || !isDigits(b) || b[0] === "0")
        return false;
    const counts = new Array(10).fill(0);
    for (const d of b.slice(0, 10))
        counts[Number(d)] += 1;
    if (counts.filter((c) => c > 1).length !== 1 || counts.some((c) => c > 3))
        return false;
    let product = 10;
    for (const d of b.slice(0, 10)) {
        let sum = (Number(d) + product) % 10;
        if (sum === 0)
            sum = 10;
        product = (sum * 2) % 11;
    }
    return Number(b[10]) === (11 - product) % 10;
}
/** A Singapore NRIC or FIN (`S1234567D`): prefix S, T, F or G, seven digits, the check letter. */
function checkSgNric(s) {
    const W = [2, 7, 6, 5, 4, 3, 2];
    const b = alnum(s);
    if (!/^[STFG][0-9]{7}[A-Z]$/.test(b))
        return false;
    const sum = ("TG".includes(b[0]) ? 4 : 0) + weighted(b.slice(1), W);
    const table = "ST".includes(b[0]) ? "JZIHGFEDCBA" : "XWUTRQPNMLK";
    return table[sum % 11] === b[8];
}
/** The ICAO 9303 check digit of an MRZ field: weights 7, 3, 1; `<` counts 0, letters 10 to 35. */
function mrzCheck(field, check) {
    let sum = 0;
    for (let i = 0; i < field.length; i++) {
        const c = field.charCodeAt(i);
        const v = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : 0;
        sum += v * [7, 3, 1][i % 3];
    }
    return check === String(sum % 10) || (check === "<" && sum === 0);
}
/**
 * A machine-readable zone of a travel document (ICAO 9303): a passport's second line (TD3, 44
 * characters), a TD2 line (36) or a TD1 card's first two lines (30 each), the line before
 * optional. Every check digit must hold.
 */
function checkMrz(s) {
    const lines = s.split("\n").map((l) => l.trim()).filter((l) => l !== "");
    const l = lines[lines.length - 1];
    if (l === undefined)
        return false;
    if (l.length === 44) {
        return mrzCheck(l.slice(0, 9), l[9]) && mrzCheck(l.slice(13, 19), l[19]) && mrzCheck(l.slice(21, 27), l[27])
            && mrzCheck(l.slice(28, 42), l[42]) && mrzCheck(l.slice(0, 10) + l.slice(13, 20) + l.slice(21, 43), l[43]);
    }
    if (l.length === 36) {
        return mrzCheck(l.slice(0, 9), l[9]) && mrzCheck(l.slice(13, 19), l[19]) && mrzCheck(l.slice(21, 27), l[27])
            && mrzCheck(l.slice(0, 10) + l.slice(13, 20) + l.slice(21, 35), l[35]);
    }
    const a = lines[lines.length - 2];
    if (l.length === 30 && a !== undefined && a.length === 30) {
        return mrzCheck(a.slice(5, 14), a[14]) && mrzCheck(l.slice(0, 6), l[6]) && mrzCheck(l.slice(8, 14), l[14])
            && mrzCheck(a.slice(5, 30) + l.slice(0, 7) + l.slice(8, 15) + l.slice(18, 29), l[29]);
    }
    return false;
}
/** A Polish PESEL: a birth date whose month carries the century, and the 1-3-7-9 check digit. */
function checkPlPesel(s) {
    const b = alnum(s);
    if (b.length !== 11 || !isDigits(b))
        return false;
    const sum = weighted(b, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]);
    return dayMonth(Number(b.slice(4, 6)), Number(b.slice(2, 4)) % 20) && (10 - (sum % 10)) % 10 === Number(b[10]);
}
/** A Swedish personal or co-ordination number (day + 60): a date and the Luhn digit of the ten-digit form. */
function checkSePersonnummer(s) {
    let b = alnum(s);
    if (b.length === 12)
        b = b.slice(2);
    if (b.length !== 10 || !isDigits(b))
        return false;
    const [mm, dd] = [Number(b.slice(2, 4)), Number(b.slice(4, 6))];
    return (dayMonth(dd, mm) || dayMonth(dd - 60, mm)) && luhnOk([...b].map(Number));
}
/** A Finnish personal identity code, `DDMMYYCNNNX`: a date, a century sign, the check character mod 31. */
function checkFiHetu(s) {
    const b = s.trim().toUpperCase();
    if (b.length !== 11 || !"+-ABCDEFUVWXY".includes(b[6]))
        return false;
    const digits = b.slice(0, 6) + b.slice(7, 10);
    if (!/^[0-9]{9}$/.test(digits) || !dayMonth(Number(b.slice(0, 2)), Number(b.slice(2, 4))))
        return false;
    return "0123456789ABCDEFHJKLMNPRSTUVWXY"[Number(digits) % 31] === b[10];
}
/** A Danish CPR number, `DDMMYY-NNNN`: a date only (no check digit since 2007), so its rule needs context. */
function checkDkCpr(s) {
    const b = alnum(s);
    return b.length === 10 && isDigits(b) && dayMonth(Number(b.slice(0, 2)), Number(b.slice(2, 4)));
}
/** A Norwegian national identity number (D- and H-numbers raise the day or month by 40): two mod 11 check digits. */
function checkNoFodselsnummer(s) {
    const b = alnum(s);
    if (b.length !== 11 || !isDigits(b))
        return false;
    const check = (w, n) => {
        const k = (11 - (weighted(b, w) % 11)) % 11;
        return k !== 10 && k === Number(b[n]);
    };
    return dayMonth(Number(b.slice(0, 2)) % 40, Number(b.slice(2, 4)) % 40) && check([3, 7, 6, 1, 8, 9, 4, 5, 2], 9)
        && check([5, 4, 3, 2, 7, 6, 5, 4, 3, 2], 10);
}
/** A Belgian national register number: 97 minus the first nine digits mod 97 (a 2 in front from 2000). */
function checkBeNationalNumber(s) {
    const b = alnum(s);
    if (b.length !== 11 || !isDigits(b) || Number(b.slice(2, 4)) % 20 > 12)
        return false;
    const [n, cc] = [Number(b.slice(0, 9)), Number(b.slice(9))];
    return 97 - (n % 97) === cc || 97 - ((2_000_000_000 + n) % 97) === cc;
}
/** An Austrian social insurance number, `NNNC DDMMYY`: the weighted check digit mod 11, a first digit not 0. */
function checkAtSvnr(s) {
    const b = alnum(s);
    if (b.length !== 10 || !isDigits(b) || b[0] === "0")
        return false;
    const dd = Number(b.slice(4, 6));
    return weighted(b, [3, 7, 9, 0, 5, 8, 4, 2, 1, 6]) % 11 === Number(b[3]) && dd >= 1 && dd <= 31;
}
/** A Swiss AHV/AVS number, `756.NNNN.NNNN.NC`: the prefix 756 and the EAN-13 check digit. */
function checkChAhv(s) {
    const b = alnum(s);
    if (b.length !== 13 || !isDigits(b) || !b.startsWith("756"))
        return false;
    const sum = weighted(b, [1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3]);
    return (10 - (sum % 10)) % 10 === Number(b[12]);
}
/** An Irish PPS number: seven digits and the check letter (mod 23; a second letter counts times 9). */
function checkIePps(s) {
    const b = alnum(s);
    if (!/^[0-9]{7}[A-Z]{1,2}$/.test(b))
        return false;
    let sum = weighted(b, [8, 7, 6, 5, 4, 3, 2]);
    if (b.length === 9 && b[8] !== "W")
        sum += (b.charCodeAt(8) - 64) * 9;
    return "WABCDEFGHIJKLMNOPQRSTUV"[sum % 23] === b[7];
}
/** A Portuguese tax number (NIF/NIPC): nine digits, a first digit in use, the mod 11 check. */
function checkPtNif(s) {
    const b = alnum(s);
    if (b.length !== 9 || !isDigits(b) || "04".includes(b[0]))
        return false;
    const r = weighted(b, [9, 8, 7, 6, 5, 4, 3, 2]) % 11;
    return (r < 2 ? 0 : 11 - r) === Number(b[8]);
}
/** The mod 11 check digit of Brazil's CPF and CNPJ over `b` with weights `w`. */
function brCheck(b, w) {
    const r = weighted(b, w) % 11;
    return r < 2 ? 0 : 11 - r;
}
/** A Brazilian CPF: two mod 11 check digits, not one digit repeated. */
function checkBrCpf(s) {
    const b = alnum(s);
    if (b.length !== 11 || !isDigits(b) || /^(.)\1*$/.test(b))
        return false;
    return brCheck(b, [10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(b[9]) && brCheck(b, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(b[10]);
}
/** A Brazilian CNPJ: two mod 11 check digits, not one digit repeated. */
function checkBrCnpj(s) {
    const W = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const b = alnum(s);
    if (b.length !== 14 || !isDigits(b) || /^(.)\1*$/.test(b))
        return false;
    return brCheck(b, W.slice(1)) === Number(b[12]) && brCheck(b, W) === Number(b[13]);
}
const VERHOEFF_D = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
/** An Indian Aadhaar number: twelve digits, the first 2-9, and the Verhoeff check digit. */
function checkInAadhaar(s) {
    const b = alnum(s);
    if (b.length !== 12 || !isDigits(b) || b[0] < "2")
        return false;
    let c = 0;
    [...b].reverse().forEach((d, i) => { c = VERHOEFF_D[c][VERHOEFF_P[i % 8][Number(d)]]; });
    return c === 0;
}
/** A Canadian social insurance number: nine digits, not starting with 0 or 8, Luhn verified. */
function checkCaSin(s) {
    const b = alnum(s);
    return b.length === 9 && isDigits(b) && !"08".includes(b[0]) && luhnOk([...b].map(Number));
}
/** A US individual taxpayer identification number: 9NN-GG-NNNN, the group in the ranges issued. */
function checkUsItin(s) {
    const b = alnum(s);
    if (b.length !== 9 || !isDigits(b) || b[0] !== "9")
        return false;
    const g = Number(b.slice(3, 5));
    return (g >= 50 && g <= 65) || (g >= 70 && g <= 88) || (g >= 90 && g <= 92) || (g >= 94 && g <= 99);
}
/** A Mexican CURP: structure, a birth date, and the check digit over the first seventeen characters. */
function checkMxCurp(s) {
    const ALPHABET = "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ";
    const b = alnum(s);
    if (b.length !== 18 || !/^[0-9]{6}$/.test(b.slice(4, 10)) || !"HMX".includes(b[10]) || !/[0-9]/.test(b[17]))
        return false;
    if (!dayMonth(Number(b.slice(8, 10)), Number(b.slice(6, 8))))
        return false;
    let sum = 0;
    for (let i = 0; i < 17; i++)
        sum += ALPHABET.indexOf(b[i]) * (18 - i);
    return (10 - (sum % 10)) % 10 === Number(b[17]);
}
/** A German identity card number: nine characters and the ICAO 9303 check digit. */
function checkDeAusweis(s) {
    const b = alnum(s);
    return b.length === 10 && /[0-9]/.test(b[9]) && mrzCheck(b.slice(0, 9), b[9]);
}
/** Lengths of the runs of digits in `s`, split at every other character. */
function digitGroups(s) {
    return s.split(/[^0-9]+/).filter((g) => g.length > 0).map((g) => g.length);
}
/** A run of digits that reads as a number a person owns: `min..max` digits (`g`: the lengths of
 * its runs), not one digit repeated, not a date (as in Rust). */
function numberRun(s, g, min, max) {
    const n = g.reduce((a, b) => a + b, 0);
    const digits = s.replace(/[^0-9]/g, "");
    const date = g.length === 3 && ((g[0] === 4 && g[1] <= 2 && g[2] <= 2) || (g[0] <= 2 && g[1] <= 2 && g[2] === 4));
    return n >= min && n <= max && [...digits].some((d) => d !== digits[0]) && !date;
}
/** A phone number after a word naming one: 8 to 15 digits, not a date nor a dotted IPv4. */
function checkPhoneDigits(s) {
    const g = digitGroups(s);
    const ipv4 = s.includes(".") && g.length === 4 && g.every((x) => x <= 3);
    return numberRun(s, g, 8, 15) && !ipv4;
}
/** A bank account number after a word naming one: 6 to 23 digits, not a date. */
function checkBankAccount(s) {
    return numberRun(s, digitGroups(s), 6, 23);
}
const CHECKS = {
    cn_id: checkCnId,
    hkid: checkHkid,
    tw_id: checkTwId,
    jp_mynumber: checkJpMyNumber,
    kr_rrn: checkKrRrn,
    us_ssn: checkUsSsn,
    iban: checkIban,
    base64_userpass: checkBase64UserPass,
    uk_nino: checkUkNino,
    es_dni: checkEsDni,
    fr_nir: checkFrNir,
    nl_bsn: checkNlBsn,
    it_cf: checkItCodiceFiscale,
    de_steuer_id: checkDeSteuerId,
    sg_nric: checkSgNric,
    mrz: checkMrz,
    pl_pesel: checkPlPesel,
    se_pnr: checkSePersonnummer,
    fi_hetu: checkFiHetu,
    dk_cpr: checkDkCpr,
    no_fnr: checkNoFodselsnummer,
    be_nrn: checkBeNationalNumber,
    at_svnr: checkAtSvnr,
    ch_ahv: checkChAhv,
    ie_pps: checkIePps,
    pt_nif: checkPtNif,
    br_cpf: checkBrCpf,
    br_cnpj: checkBrCnpj,
    in_aadhaar: checkInAadhaar,
    ca_sin: checkCaSin,
    us_itin: checkUsItin,
    mx_curp: checkMxCurp,
    de_ausweis: checkDeAusweis,
    phone_digits: checkPhoneDigits,
    bank_account: checkBankAccount,
};
/** Shannon entropy in bits per character (summed in order of first appearance, as in Rust). */
export function shannonEntropy(s) {
    const chars = [...s];
    if (chars.length === 0)
        return 0;
    const counts = new Map();
    for (const c of chars)
        counts.set(c, (counts.get(c) ?? 0) + 1);
    let h = 0;
    for (const n of counts.values()) {
        const p = n / chars.length;
        h -= p * Math.log2(p);
    }
    return h;
}
function hasRequired(v, what) {
    const digit = /[0-9]/.test(v);
    const upper = /[A-Z]/.test(v);
    const lower = /[a-z]/.test(v);
    switch (what) {
        case "digit": return digit;
        case "letter": return upper || lower;
        case "upper": return upper;
        case "lower": return lower;
        case "secret_value": return isLikelySecretValue(v);
        // Not words run together (`searchResultsPageLayoutV2`): a run of five lower-case letters and
        // at most one digit reads as an identifier, not as a random key.
        case "random": return !(/[a-z]{5}/.test(v) && (v.match(/[0-9]/g) ?? []).length <= 1);
        case "mixed": {
            const other = /[^A-Za-z0-9]/.test(v);
            return ((upper || lower) && digit) || [digit, upper, lower, other].filter(Boolean).length >= 3;
        }
        default: return false;
    }
}
/** The pattern as JavaScript reads it: `d` for group offsets, the rule's flags. */
export function compileSecretRule(spec) {
    const flags = "gd" + (spec.ignore_case ? "i" : "") + (spec.multiline ? "m" : "");
    const validate = spec.validate === undefined ? undefined : CHECKS[spec.validate];
    if (spec.validate !== undefined && validate === undefined)
        throw new Error(`${spec.id}: unknown check ${spec.validate}`);
    return { spec, re: new RegExp(spec.pattern, flags), validate };
}
const DATA_RULES = SECRET_RULES.flatMap((spec) => {
    try {
        return [compileSecretRule(spec)];
    }
    catch {
        return []; // the rule-file test fails on it, so a released build has none
    }
});
/** The category each rule of the rule file counts under. */
const DATA_RULE_CATEGORY = Object.fromEntries(SECRET_RULES.map((r) => [`rules:${r.id}`, r.category]));
function acceptsSecret(rule, v) {
    const s = rule.spec;
    if (v === "" || /^[$<{%[]/.test(v))
        return false;
    if (s.entropy !== undefined && shannonEntropy(v) < s.entropy)
        return false;
    if (s.require && !s.require.every((r) => hasRequired(v, r)))
        return false;
    if (s.stopwords && s.stopwords.length > 0) {
        const lower = asciiLower(v);
        if (s.stopwords.some((w) => lower.includes(w)))
            return false;
    }
    return rule.validate === undefined || rule.validate(v);
}
/** Whether a veto word stands between the start of the match's line and the end of its value. */
function vetoed(rule, text, start, end) {
    const veto = rule.spec.veto;
    if (!veto || veto.length === 0)
        return false;
    const window = asciiLower(text.slice(text.lastIndexOf("\n", start - 1) + 1, end));
    return veto.some((w) => window.includes(w));
}
const asciiLower = (s) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
/** Runs one stage of the rule file over the text. */
function applyStage(stage, text, count) {
    let lower = asciiLower(text);
    for (const rule of DATA_RULES) {
        if ((rule.spec.stage ?? "secrets") !== stage)
            continue;
        const kw = rule.spec.keywords;
        if (kw && kw.length > 0 && !kw.some((k) => lower.includes(k)))
            continue;
        const group = rule.spec.group ?? 0;
        const re = rule.re;
        re.lastIndex = 0;
        let out = "";
        let copied = 0;
        let changed = false;
        let m;
        while ((m = re.exec(text)) !== null) {
            if (m[0] === "") {
                re.lastIndex++;
                continue;
            }
            const span = m.indices?.[group];
            if (!span)
                continue;
            if (!acceptsSecret(rule, text.slice(span[0], span[1])) || vetoed(rule, text, m.index, span[1]))
                continue;
            out += text.slice(copied, span[0]) + rule.spec.replace;
            copied = span[1];
            changed = true;
            count?.(`rules:${rule.spec.id}`);
        }
        if (changed) {
            text = out + text.slice(copied);
            lower = asciiLower(text);
        }
    }
    return text;
}
const IPV4_OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const RULES = [
    // PEM private key blocks (also truncated ones without an END line).
    {
        name: "private_key",
        pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
        replace: () => "[PRIVATE_KEY]",
    },
    // Passwords embedded in URLs: scheme://user:password@host -> scheme://user:[REDACTED]@host
    // (also redis://:password@host and mongodb+srv://).
    {
        name: "url_password",
        pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*):([^\s@/]+)@/gi,
        replace: (m, prefix, pw) => (pw === "[REDACTED]" || isVariableReference(pw) ? m : `${prefix}:[REDACTED]@`),
    },
    // JSON Web Tokens (three base64url segments, the first one a JSON header).
    {
        name: "jwt",
        pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
        replace: () => "[JWT]",
    },
    // Bearer tokens: at least 16 token characters including a digit, so prose such as
    // "use a Bearer token" or "Bearer authentication" is left alone. A colon may join parts of one
    // token (Asana's `2/1204...:9f8e...`).
    {
        name: "bearer",
        pattern: /\b(Bearer)\s+(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{16,}(?::[A-Za-z0-9._~+/-]+)*=*/gi,
        replace: (_m, word) => `${word} [TOKEN]`,
    },
    {
        name: "basic_auth",
        pattern: /\b(Authorization["']?\s*:\s*["']?Basic)\s+[A-Za-z0-9+/]{8,}={0,2}/gi,
        replace: (_m, head) => `${head} [TOKEN]`,
    },
    // OpenAI / Anthropic style keys: sk-..., sk-proj-..., sk-ant-... (needs a digit and 20+ chars;
    // the left guard keeps words like "task-runner-..." intact).
    {
        name: "sk_key",
        pattern: /(?<![A-Za-z0-9_-])sk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g,
        replace: () => "[API_KEY]",
    },
    // Stripe-style live/test keys.
    {
        name: "stripe_key",
        pattern: /(?<![A-Za-z0-9_])(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g,
        replace: () => "[API_KEY]",
    },
    // AWS access key ids.
    {
        name: "aws_key",
        pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA)[0-9A-Z]{16}\b/g,
        replace: () => "[AWS_KEY]",
    },
    // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
    { name: "github_token", pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, replace: () => "[GITHUB_TOKEN]" },
    { name: "github_pat", pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/g, replace: () => "[GITHUB_TOKEN]" },
    // GitLab personal, project and group access tokens.
    { name: "gitlab_token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, replace: () => "[API_KEY]" },
    // Slack tokens.
    { name: "slack_token", pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g, replace: () => "[SLACK_TOKEN]" },
    { name: "slack_app_token", pattern: /\bxapp-\d-[A-Za-z0-9-]{10,}/g, replace: () => "[SLACK_TOKEN]" },
    // Google API keys.
    { name: "google_key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, replace: () => "[API_KEY]" },
    // npm automation and publish tokens.
    { name: "npm_token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, replace: () => "[API_KEY]" },
    // PyPI upload tokens (base64 macaroons: mixed case and digits; `pypi-simple-mirror` stays).
    {
        name: "pypi_token",
        pattern: /\bpypi-[A-Za-z0-9_-]{32,}/g,
        replace: (m) => (/\d/.test(m) && /[A-Z]/.test(m) ? "[API_KEY]" : m),
    },
    // Hugging Face access tokens (`hf_hub_download` has an underscore and stays).
    { name: "huggingface_token", pattern: /\bhf_[A-Za-z0-9]{30,}\b/g, replace: () => "[API_KEY]" },
    // SendGrid keys (`SG.<id>.<secret>`), used by Azure's SendGrid too.
    { name: "sendgrid_key", pattern: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g, replace: () => "[API_KEY]" },
    // Twilio API key and account SIDs (`SK`/`AC` + 32 hex).
    { name: "twilio_key", pattern: /\b(?:SK|AC)[0-9a-f]{32}\b/g, replace: () => "[API_KEY]" },
    // Discord bot tokens (`<base64 id>.<6>.<27+>`).
    {
        name: "discord_token",
        pattern: /\b[MNO][A-Za-z0-9]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b/g,
        replace: () => "[API_KEY]",
    },
    // Webhook URLs whose path is the secret (Discord, Slack).
    {
        name: "webhook_secret",
        pattern: /(discord(?:app)?\.com\/api\/webhooks\/[0-9]{5,25}\/|hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/)[A-Za-z0-9_-]{16,}/gi,
        replace: (_m, head) => `${head}[REDACTED]`,
    },
    // Command-line flags that take a credential: `--password xyz`, `--token=...`, `--api-key '...'`.
    // Quoted values always count; bare ones must look like a secret.
    {
        name: "cli_flag_secret",
        pattern: /(?<=^|[\s(;|&])(--?(?:password|passwd|pass|pwd|token|api[_-]?key|apikey|secret|client[_-]?secret|auth[_-]?token|access[_-]?token|access[_-]?key|secret[_-]?key|private[_-]?key|storepass|keypass|passin|passout)(?:=|[ \t]+)(["']?))([^\s"']+)/gi,
        replace: (m, head, q, value) => isPlaceholder(value) || isMountSpec(value) || !(q !== "" || isLikelySecretValue(value)) ? m : `${head}[REDACTED]`,
    },
    // MySQL/MariaDB's attached password flag (`mysql -uroot -pS3cret`), and any quoted attached `-p'...'`.
    {
        name: "password_flag",
        pattern: /(?<=^|[\s(;|&])((?:(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)[^\n|;]{0,200}?[ \t]-p|-p["'])["']?)([^\s"']+)/g,
        replace: (m, head, value) => (isPlaceholder(value) ? m : `${head}[REDACTED]`),
    },
    // `curl -u user:password` (a uid:gid pair such as `-u 1000:1000` stays).
    {
        name: "user_password_flag",
        pattern: /(?<=^|[\s(;|&])((?:-u|--user)[ \t]*["']?([^\s:"'@]{1,64}):)([^\s"'@]+)/g,
        replace: (m, head, user, value) => isPlaceholder(value) || (/^\d+$/.test(value) && /^\d+$/.test(user)) ? m : `${head}[REDACTED]`,
    },
    // Credentials in URL queries and `key=value;` connection strings (JDBC, ADO.NET, Azure):
    // `?password=x`, `;Password=x;`, `&sig=...`. A password counts whatever it looks like; other
    // keys need a secret-looking value.
    {
        name: "query_secret",
        pattern: /([?&;][ \t]*(password|passwd|pwd|pass|secret|client_secret|token|access_token|refresh_token|api_key|apikey|api-key|sig|signature|accountkey|sharedaccesskey)[ \t]*=[ \t]*)([^&\s#;"'<>]+)/gi,
        replace: (m, head, key, value) => {
            const password = ["password", "passwd", "pwd", "pass"].includes(key.toLowerCase());
            return isPlaceholder(value) || !(password || isLikelySecretValue(value) || value.length >= 16) ? m : `${head}[REDACTED]`;
        },
    },
    // key=value / key: value secrets (api_key=..., "password": "...", TOKEN=...). The value must
    // look like a secret (see isLikelySecretValue), so `password: string` in code survives.
    {
        name: "secret_assignment",
        pattern: /\b(_*(?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|access[_-]?key|secret[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|aws_secret_access_key|account[_-]?key|private[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|sas[_-]?token|credentials?|secret|password|passwd|passphrase|pass|pwd|token)["']?[ \t]*[:=][ \t]*["']?)([^\s"',;`]{8,})/gi,
        replace: (m, head, value) => (isLikelySecretValue(value) ? `${head}[REDACTED]` : m),
    },
    // Oracle JDBC `jdbc:oracle:thin:user/password@host`.
    {
        name: "jdbc_oracle",
        pattern: /(jdbc:oracle:[a-z0-9]+:[^\s/@:;]{1,64}\/)([^\s@/]+)@/gi,
        replace: (m, head, value) => (value === "[REDACTED]" ? m : `${head}[REDACTED]@`),
    },
    // Wallet seed phrases: twelve or more words in a row from the BIP-39 English list, in any
    // surrounding language (numbered or comma-separated too). Ordinary prose does not run that long
    // without `the`, `a`, `is` or `to`, none of which the list holds.
    {
        name: "bip39_mnemonic",
        pattern: /(?<![A-Za-z])[a-z]{3,8}(?:[ \t\r\n,;]+(?:[0-9]{1,2}[.)][ \t]*)?[a-z]{3,8}){11,}(?![A-Za-z])/g,
        replace: (m) => maskSeedPhrases(m) ?? m,
    },
    // Provider keys (gitleaks' rules) and secrets given away by their context: rules/secrets.json.
    { name: "rules:secrets", stage: "secrets" },
    // Base64 that decodes to a known secret (a key pasted encoded, a Kubernetes secret).
    {
        name: "encoded_secret",
        pattern: /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{20,}={0,2}(?![A-Za-z0-9+/=_-])/g,
        replace: (m) => (isEncodedSecret(m) ? "[ENCODED_SECRET]" : m),
    },
    // Internationalised and full-width addresses (`josé@exämple.com`, `ｂｏｂ＠ｅｘａｍｐｌｅ．ｃｏｍ`,
    // `用户@例子.中国`): a local part in Latin, Greek or Cyrillic letters (full-width too) or all Han,
    // an @ or ＠, a domain with an ASCII, full-width or common IDN top-level domain. All-ASCII
    // matches are left to the next rule.
    {
        name: "email_unicode",
        pattern: /(?<![0-9._%+\-\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{M}０-９＿．])(\p{Script=Han}{1,20}|[0-9._%+\-\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{M}０-９＿．]+)[@＠][\p{L}\p{N}\p{M}\-－]+(?:[.．][\p{L}\p{N}\p{M}\-－]+)*[.．](?:[A-Za-z]{2,}|[ａ-ｚＡ-Ｚ]{2,}|\p{Script=Greek}{2,}|\p{Script=Cyrillic}{2,}|中国|中國|公司|网络|網絡|在线|广告|移动|みんな|한국)(?![A-Za-z0-9\-ａ-ｚＡ-Ｚ０-９])/gu,
        replace: (m, local) => (/^[\x00-\x7f]*$/.test(m) || local.toLowerCase() === "git" ? m : "[EMAIL]"),
    },
    // Email addresses. `git@host:org/repo` SSH remotes are kept (not a person's address), and so is
    // a local part ending in `-` or `.` and a domain running on into `_`: that is a decorator after a
    // `grep -n` line prefix (`57-@app.route`, `@functools.lru_cache`).
    {
        name: "email",
        pattern: /(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-]+)@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})(?![A-Za-z0-9_-])/g,
        replace: (m, local) => (local.toLowerCase() === "git" || /[-.]$/.test(local) ? m : "[EMAIL]"),
    },
    // Home directories: /home/<user>, /Users/<user> (also file:// URLs), C:\Users\<user>.
    // The left guard keeps URL paths like https://example.com/home/docs intact.
    {
        name: "posix_home",
        pattern: /(?<=^|[\s"'`(=:,;[{<>|]|file:\/\/)(\/(?:home|Users))\/(?!\[REDACTED\])([^/\s"'`<>)\]}|,;:]+)/g,
        replace: (m, root, user) => (isGenericAccount(user) ? m : `${root}/[REDACTED]`),
    },
    {
        name: "windows_home",
        pattern: /\b([A-Za-z]:(?:\\\\|\\|\/)(?:Users|Documents and Settings)(?:\\\\|\\|\/))(?!\[REDACTED\])([^\\/\s"'`<>|:*?]+)/gi,
        replace: (m, head, user) => (isGenericAccount(user) ? m : `${head}[REDACTED]`),
    },
    // National ids, IBANs and phone numbers with their check digits: rules/secrets.json.
    { name: "rules:personal", stage: "personal" },
    // Chinese resident identity numbers: region, birth date, sequence, check character (the checksum
    // is verified, so an 18-digit order number is kept).
    {
        name: "cn_resident_id",
        pattern: /(?<![A-Za-z0-9_-])[1-8]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[0-9Xx](?![A-Za-z0-9_-])/g,
        replace: (m) => (isCnResidentId(m) ? "[ID_NUMBER]" : m),
    },
    // Payment cards: 13-19 digits, compact or in groups of 3-6 between spaces or dashes (so an expiry
    // date after the number is not read as its last group), issuer prefix and Luhn.
    {
        name: "payment_card",
        pattern: /(?<![A-Za-z0-9_.+/-])(?:\d{3,6}(?:[ -]\d{3,6}){1,5}|\d{13,19})(?![A-Za-z0-9_]|[-.]\d)/g,
        replace: (m) => (isPaymentCard(m) ? "[CARD]" : m),
    },
    // IPv4 addresses. Kept: loopback (127/8), 0.0.0.0, 255.255.x.x masks, dotted quads that are
    // part of longer dotted numbers (1.2.3.4.5), and quads right after a version marker
    // ("v1.2.3.4", "version 10.0.19041.1", "==1.2.3.4").
    {
        name: "ipv4",
        pattern: new RegExp(`(?<![\\w.])${IPV4_OCTET}(?:\\.${IPV4_OCTET}){3}(?![\\w]|\\.\\d)`, "g"),
        replace: (m, ...rest) => {
            const offset = rest[rest.length - 2];
            const input = rest[rest.length - 1];
            if (!isPublicishIPv4(m))
                return m;
            const before = before16(input, offset);
            if ((VERSION_CONTEXT.test(before) || NUMBERING_CONTEXT.test(before)) && !ADDRESS_KEY.test(before))
                return m;
            return "[IP]";
        },
    },
    // IPv6 addresses with a real shape (see isRealIPv6): C++ `a::b`, MAC addresses and times are
    // kept, and so is loopback `::1`.
    {
        name: "ipv6",
        pattern: /(?<![A-Za-z0-9_:.])(?:(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}:){0,5}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,7}:)(?![A-Za-z0-9_:])/g,
        replace: (m) => (isRealIPv6(m) ? "[IP]" : m),
    },
    // Phone numbers: international "+<digits>" (8-15 digits), US 555-123-4567 / (555) 123-4567,
    // Chinese mobiles 13812345678 / 138-1234-5678. Dotted forms are not touched (version-like).
    {
        name: "phone_international",
        pattern: /(?<![\w+])\+\d[\d ()-]{6,20}\d(?![\d])/g,
        replace: (m) => {
            const digits = m.replace(/\D/g, "").length;
            return digits >= 8 && digits <= 15 ? "[PHONE]" : m;
        },
    },
    {
        name: "phone_us",
        pattern: /(?<![\w.-])(?:\(\d{3}\)\s?|\d{3}-)\d{3}-\d{4}(?![\w-])/g,
        replace: () => "[PHONE]",
    },
    // Chinese landlines: area code 010/02x + 8 digits or 0xxx + 7-8 digits, written `010-12345678`,
    // `(0755)1234567` or `（0755）1234567`.
    {
        name: "phone_cn_landline",
        pattern: /(?<![A-Za-z0-9_.+\-/])(?:\((0(?:10|2\d|[3-9]\d{2}))\)|（(0(?:10|2\d|[3-9]\d{2}))）|(0(?:10|2\d|[3-9]\d{2}))-) ?([1-9]\d{6,7})(?![A-Za-z0-9_]|-\d)/g,
        replace: (m, a1, a2, a3, local) => ((a1 || a2 || a3 || "").length === 3 && local.length !== 8 ? m : "[PHONE]"),
    },
    {
        name: "phone_cn",
        pattern: /(?<![\w.+-])1[3-9]\d(?:[ -]?\d{4}){2}(?![\w.-]?\d)/g,
        replace: (m, offset, input) => (isQuantity(m, offset, input) ? m : "[PHONE]"),
    },
];
/** The names of the redaction rules, in the order they are applied. */
export const REDACTION_RULES = RULES.map((r) => r.name);
/** The category each rule counts under (the server's `RedactionCounts` fields). */
const RULE_CATEGORY = {
    private_key: "private_key",
    jwt: "jwt",
    bearer: "bearer_token",
    basic_auth: "bearer_token",
    encoded_secret: "encoded_secret",
    email_unicode: "email",
    email: "email",
    posix_home: "home_path",
    windows_home: "home_path",
    cn_resident_id: "national_id",
    payment_card: "payment_card",
    ipv4: "ip",
    ipv6: "ip",
    phone_international: "phone",
    phone_us: "phone",
    phone_cn_landline: "phone",
    phone_cn: "phone",
    url_password: "secret",
    webhook_secret: "secret",
    cli_flag_secret: "secret",
    password_flag: "secret",
    user_password_flag: "secret",
    query_secret: "secret",
    secret_assignment: "secret",
    jdbc_oracle: "secret",
    bip39_mnemonic: "secret",
    secret_column: "secret",
};
/** Every redaction category, in the server's order. */
export const REDACTION_CATEGORIES = [
    "private_key",
    "jwt",
    "bearer_token",
    "api_key",
    "encoded_secret",
    "secret",
    "email",
    "home_path",
    "ip",
    "phone",
    "national_id",
    "payment_card",
    "address",
];
/** The category a rule counts under; provider keys and tokens are `api_key`. */
export function redactionCategory(rule) {
    return RULE_CATEGORY[rule] ?? DATA_RULE_CATEGORY[rule] ?? "api_key";
}
/**
 * Redacts like redactSensitiveInfo and counts the replacements per category (the same counts as the
 * server's `redactions`).
 */
export function redactWithCounts(text) {
    const counts = Object.fromEntries(REDACTION_CATEGORIES.map((c) => [c, 0]));
    const out = applyRules(RULES, text, (rule) => {
        const c = redactionCategory(rule);
        counts[c] = (counts[c] ?? 0) + 1;
    });
    return { text: out, counts };
}
/**
 * Removes secrets and personal data from free text (strict privacy mode). Invisible characters
 * that could split a secret are removed first and tokens split across lines are joined.
 * Idempotent: redacting twice gives the same result as redacting once.
 */
export function redactSensitiveInfo(text) {
    return applyRules(RULES, text);
}
function applyRules(rules, text, count) {
    if (!text)
        return text;
    let out = maskSecretColumns(joinSplitTokens(stripInvisible(text)), count);
    for (const rule of rules) {
        if ("stage" in rule) {
            out = applyStage(rule.stage, out, count);
            continue;
        }
        rule.pattern.lastIndex = 0;
        const replace = rule.replace;
        out = out.replace(rule.pattern, (m, ...args) => {
            const r = replace(m, ...args);
            if (r !== m && count)
                count(rule.name);
            return r;
        });
    }
    return out;
}
// In a field that only holds a version, a dotted quad (`10.0.19041.1`) is a version, not an address.
const VERSION_RULES = RULES.filter((r) => r.name !== "ipv4");
/** Redacts a version string (`resource_version`): every rule but IPv4, which would eat versions. */
export function redactVersionString(version) {
    return applyRules(VERSION_RULES, version);
}
/** Applies the privacy mode to text: strict redacts, relaxed returns it unchanged. */
export function applyPrivacy(text, mode) {
    return mode === "strict" ? redactSensitiveInfo(text) : text;
}
/** Deeply redacts every string inside a JSON-like value (object keys are kept). */
export function redactValue(value, mode = "strict", depth = 0) {
    if (mode === "relaxed")
        return value;
    if (typeof value === "string")
        return redactSensitiveInfo(value);
    if (depth > 32 || value === null || typeof value !== "object")
        return value;
    if (Array.isArray(value))
        return value.map((v) => redactValue(v, mode, depth + 1));
    const out = {};
    for (const [k, v] of Object.entries(value))
        out[k] = redactValue(v, mode, depth + 1);
    return out;
}
// ---------------------------------------------------------------------------------------------
// Prompt-injection screening (the same engine as crates/knowhub-core/src/guard.rs; both are
// checked against testdata/security-cases.jsonl)
// ---------------------------------------------------------------------------------------------
/** Text that tries to replace the model's instructions or jailbreak it. */
export const INSTRUCTION_OVERRIDE = "instruction_override";
/** Asks the model to reveal its hidden instructions or system prompt. */
export const PROMPT_LEAK = "prompt_leak";
/** Fake chat turns or role markers (`Human:`, `### System:`, `<|im_start|>`, `[INST]`, `</system>`). */
export const ROLE_MARKER = "role_marker";
/** Opens or closes KnowHub's own wrapper tags (`</knowhub-experiences>`) to break out of the data block. */
export const WRAPPER_ESCAPE = "wrapper_escape";
/** A markdown image or HTML `<img>` whose URL would carry data out when rendered. */
export const EXFILTRATION = "exfiltration";
/** A base64 run that decodes to one of the above. */
export const ENCODED_PAYLOAD = "encoded_payload";
/** Text hidden in Unicode tag characters (invisible to a reviewer, read by a model). */
export const HIDDEN_TEXT = "hidden_text";
/** Download piped to a shell, recursive delete of home or root, disk wipes: for a reviewer to see. */
export const DANGEROUS_COMMAND = "dangerous_command";
/** Every category, in the order screenText reports them. */
export const INJECTION_CATEGORIES = [
    INSTRUCTION_OVERRIDE,
    PROMPT_LEAK,
    ROLE_MARKER,
    WRAPPER_ESCAPE,
    EXFILTRATION,
    ENCODED_PAYLOAD,
    HIDDEN_TEXT,
    DANGEROUS_COMMAND,
];
const IO = INSTRUCTION_OVERRIDE;
const PL = PROMPT_LEAK;
const RM = ROLE_MARKER;
const DC = DANGEROUS_COMMAND;
/** `[category, pattern]`, run on normalised text; the Rust twin has the same table. */
const SCREEN_PATTERNS = [
    // --- English ---
    [IO, /ignore (all|any|previous|above|prior) instructions/i],
    [IO, /do not follow (the )?(system|developer)/i],
    [IO, /forget (all|everything|previous)/i],
    [IO, /new instructions:/i],
    [
        IO,
        /\b(ignore|disregard|forget|override|bypass|skip|drop|discard|abandon|set aside|throw out|neglect)\s+(?:(?:all|any|the|your|of|these|those|my|every|its|whatever)\s+)*(previous|prior|above|earlier|preceding|former|original|initial|existing|system|developer|safety|old|current)\s+(instructions?|prompts?|rules|directions|guidelines|messages|guardrails|constraints|orders|commands|context)\b/i,
    ],
    [IO, /\b(ignore|disregard|forget)\s+(all|everything)\s+(above|before|previously|said|you were told|you have been told|prior)\b/i],
    [IO, /\b(ignore|disregard|forget)\s+(what|everything)\s+(you were|you've been|you have been)\s+(told|instructed|given)\b/i],
    [IO, /\bnew\s+(system\s+)?instructions?\s*[:：]/i],
    [
        IO,
        /\b(ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|of|these|those|my)\s+)*(instructions|prompts?|rules|directions|guidelines)\s+(above|before this|given (?:earlier|before|above)|you (?:were|have been) given|from (?:before|earlier|the system|the developer))/i,
    ],
    [
        IO,
        /\b(previous|prior|above|earlier|original|system)\s+(instructions|rules|prompt)\s+(are|is)\s+(now\s+)?(void|cancel+ed|revoked|obsolete|no longer (valid|apply|applicable|in effect))\b/i,
    ],
    [IO, /\b(never ?mind|pay no attention to)\s+(all\s+|the\s+|your\s+)*(previous|prior|above|earlier|system)\s+(instructions|rules|prompts?)\b/i],
    [IO, /\b(stop|quit) following\s+(your|the|all)\s+(\w+\s+)?(instructions|rules|guidelines)\b/i],
    [IO, /\byou are now (?:an? |in )?(?:DAN|unrestricted|unfiltered|jailbroken|developer mode|free of (?:all )?(?:rules|restrictions))\b/i],
    [IO, /\b(act|behave)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?(unrestricted|unfiltered|jailbroken)\b/i],
    [IO, /\b(enable|enter|activate)\s+(developer|god|jailbreak|DAN)\s+mode\b/i],
    [IO, /\bdo anything now\b/i],
    [IO, /\bfrom now on,?\s+you\s+(will|must|shall|are to)\s+(ignore|obey|only|always|never|not)\b/i],
    [
        PL,
        /\b(reveal|print|show|repeat|output|leak|dump|display|tell me|give me|send me|echo)\s+(me\s+)?(your|the)\s+(hidden\s+|initial\s+|original\s+|secret\s+|full\s+|entire\s+|exact\s+)?(instructions|prompt|system\s+prompt|system\s+message)\b/i,
    ],
    [PL, /\b(reveal|print|show|repeat|output|leak|dump|display)\b[^.!?\n]{0,30}\bsystem prompt\b/i],
    [PL, /\bwhat (is|are|was|were) your (system prompt|initial instructions|hidden instructions)\b/i],
    // --- Simplified and Traditional Chinese ---
    [
        IO,
        /(忽略|无视|無視|忽视|忽視|不要理会|不要理會|不理会|不理會|别管|別管|抛开|拋開|忘记|忘記|忘掉|撇开|撇開|跳过|跳過)[^。！？!?\n]{0,10}?(之前|以前|先前|此前|上面|上述|以上|前面|前述|所有|全部|一切|原来|原來|原有|原先|系统|系統|开发者|開發者)[^。！？!?\n]{0,8}?(指令|指示|提示词|提示詞|规则|規則|设定|設定|说的话|說的話|命令|要求)/,
    ],
    [IO, /(不要|别|別|请勿|請勿|无需|無需|不必|不用)再?(遵守|遵循|服从|服從|听从|聽從|理会|理會)[^。！？!?\n]{0,6}?(系统|系統|开发者|開發者|之前|以上|上面|原来|原來)/],
    [IO, /新的?(指令|指示)\s*[:：]/],
    [IO, /(你现在是|你現在是|现在你是|現在你是)[^。！？!?\n]{0,12}?(不受|没有|沒有|无|無)(任何)?(限制|约束|約束)/],
    [IO, /(从现在开始|從現在開始|从现在起|從現在起)[，,]?\s*你(必须|必須|只能|要|将|將)(忽略|无视|無視|服从|服從|听从|聽從)/],
    [PL, /(系统提示词|系統提示詞)/],
    [PL, /(输出|輸出|显示|顯示|泄露|洩露|打印|告诉我|告訴我|重复|重複|透露)[^。！？!?\n]{0,6}?(系统提示|系統提示|你的提示词|你的提示詞|你的指令|初始指令)/],
    // --- Japanese ---
    [IO, /(以前|これまで|今まで|前|上記|先ほど|先程|上|すべて|全て)の?[^。\n]{0,8}?(指示|命令|プロンプト|ルール|指令)[^。\n]{0,6}?(無視|忘れ|破棄)/],
    [IO, /(指示|命令|ルール)(は|を)?(すべて|全て)?(無視|忘れ)して/],
    [PL, /システムプロンプト[^。\n]{0,10}?(表示|出力|教え|見せ|開示|繰り返)/],
    // --- Korean ---
    [IO, /(이전|앞의|위의|모든|기존|시스템)[^.\n]{0,10}?(지시|명령|지침|규칙|프롬프트)[^.\n]{0,8}?(무시|잊어)/],
    [PL, /시스템 ?프롬프트[^.\n]{0,10}?(보여|출력|알려|공개)/],
    // --- Spanish, Portuguese, Italian, French, German ---
    [
        IO,
        /(ignora|ignore|ignorar|ignores|olvida|olvide|olvidar|omite|descarta|esqueça|esqueca|esquece|desconsidere|desconsidera|dimentica|dimenticare|trascura|oublie|oubliez|ignorez|ne tiens pas compte d|ne tenez pas compte d)[^.!?\n]{0,25}?(instrucciones|instruções|instrucoes|istruzioni|instructions|indicaciones|consignes|reglas|regras|regole|règles)[^.!?\n]{0,12}?(anteriores|previas|prévias|previas|precedentes|precedenti|précédentes|antérieures|de arriba|acima|sopra|ci-dessus|del sistema|do sistema|di sistema|du système|originales|originais|originali)/i,
    ],
    [
        IO,
        /(ignora|ignore|ignorar|olvida|olvide|esqueça|esqueca|desconsidere|dimentica|oublie|oubliez|ignorez)\s+(?:(?:todas|tutte|toutes)\s+)?(?:(?:las|los|as|os|le|les|i)\s+)?(?:(?:tus|sus|tuas|suas|tue|tuoi|tes|vos)\s+)?(?:(?:anteriores|precedenti|précédentes)\s+)?(instrucciones|instruções|instrucoes|istruzioni|instructions|consignes)\b/i,
    ],
    [
        IO,
        /(ignorier|ignoriere|ignorieren|vergiss|vergessen|missachte|überspringe)[^.!?\n]{0,25}?(vorherigen|bisherigen|obigen|vorigen|früheren|alle|deine|ihre|ursprünglichen|system)[^.!?\n]{0,15}?(anweisungen|instruktionen|befehle|regeln|vorgaben)/i,
    ],
    [IO, /(nuevas instrucciones|nouvelles instructions|neue anweisungen|novas instruções|nuove istruzioni)\s*[:：]/i],
    [
        PL,
        /(revela|muestra|imprime|mostre|revele|mostra|rivela|révèle|révélez|affiche|montre|zeige|zeig|gib)[^.!?\n]{0,20}?(prompt del sistema|prompt do sistema|prompt di sistema|prompt système|prompt systeme|systemprompt|system-prompt)/i,
    ],
    // --- Russian ---
    [
        IO,
        /(игнорируй|игнорируйте|забудь|забудьте|проигнорируй|не обращай внимания на|не следуй|отбрось)[^.!?\n]{0,25}?(предыдущие|прошлые|все|свои|твои|системные|вышеуказанные|прежние|исходные)[^.!?\n]{0,15}?(инструкции|указания|правила|команды|промпт)/i,
    ],
    [PL, /(покажи|выведи|раскрой|повтори|напиши)[^.!?\n]{0,20}?(системный промпт|системные инструкции|свои инструкции)/i],
    // --- Fake turns and role markers ---
    [RM, /^[ \t>*_]*(human|assistant)\s*:/im],
    [RM, /^[ \t>]*#{1,6}[ \t]*(system|assistant|human|user|instruction|instructions)[ \t]*:/im],
    [RM, /<\s*(system|assistant|developer|tool)\b/i],
    [RM, /<\s*\/\s*(system|assistant|developer|tool|user)\s*>/i],
    [RM, /<\|\s*(im_start|im_end|system|assistant|user|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\s*\|>/i],
    [RM, /<\s*\/?\s*(start_of_turn|end_of_turn)\s*>/i],
    [RM, /\[\/?INST\]|<<\/?SYS>>/],
    [RM, /\[(system|assistant)\]\(#/i],
    // --- Breaking out of KnowHub's wrapper ---
    [WRAPPER_ESCAPE, /<\s*\/?\s*knowhub[-_][a-z]/i],
    // --- Exfiltration through rendered images ---
    [EXFILTRATION, /!\[[^\]\n]{0,200}\]\(\s*<?\s*(?:https?:)?\/\/[^)\s?]{1,300}\?[^)\s]{0,2000}=/i],
    [EXFILTRATION, /<\s*img\b[^>]{0,300}?\bsrc\s*=\s*["']?\s*(?:https?:)?\/\//i],
    // --- Exfiltration through shell commands: the environment or a credential file sent to a
    // network tool (a token in an `Authorization` header is ordinary API use and not matched) ---
    [EXFILTRATION, /\b(?:env|printenv)\s*\|[^\n]{0,120}?\b(?:curl|wget|nc|ncat|netcat|socat|telnet)\b/i],
    [EXFILTRATION, /\b(?:cat|base6[4a]|xxd|gzip|tar)\b[^\n|]{0,80}?(?:\.env\b|\.ssh\/|\.aws\/|id_(?:rsa|dsa|ecdsa|ed)|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker\/config|\.kube\/config|kubeconfig|\/etc\/shadow|\/etc\/passwd|\.pgpass|\/proc\/self\/environ)[^\n|]{0,40}\|[^\n]{0,120}?\b(?:curl|wget|nc|ncat|netcat|socat|telnet)\b/i],
    [EXFILTRATION, /\b(?:curl|wget|nc|ncat|netcat|socat|telnet)\b[^\n]{0,160}?(?:\$\(|`)\s*(?:env|printenv|(?:cat|base6[4a])\s+[A-Za-z0-9_.\/~${}-]{0,80}?(?:\.env\b|\.ssh\/|\.aws\/|id_(?:rsa|dsa|ecdsa|ed)|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker\/config|\.kube\/config|kubeconfig|\/etc\/shadow|\/etc\/passwd|\.pgpass|\/proc\/self\/environ))/i],
    [EXFILTRATION, /\b(?:curl|wget)\b[^\n]{0,160}?(?:-d|--data[a-z-]*|-F|--form|-T|--upload-file|--post-file)(?:\s+|=)["']?[A-Za-z0-9_=@.\/~${}-]{0,80}?(?:\.env\b|\.ssh\/|\.aws\/|id_(?:rsa|dsa|ecdsa|ed)|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker\/config|\.kube\/config|kubeconfig|\/etc\/shadow|\/etc\/passwd|\.pgpass|\/proc\/self\/environ)/i],
    // --- Exfiltration asked for in words: a credential's contents put into what the model sends or writes ---
    [EXFILTRATION, /\b(?:attach|include|paste|send|post|upload|share|submit|append|report|echo|print|reveal|leak|forward|email)\b[^\n]{0,80}?\b(?:output|outputs|contents?|value|values|text)\s+of\b[^\n]{0,60}?(?:\.env\b|\.ssh\/|\.aws\/|id_(?:rsa|dsa|ecdsa|ed25519)(?:$|[^A-Za-z0-9_.])|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker\/config|\.kube\/config|kubeconfig|\/etc\/shadow|\.pgpass|\/proc\/self\/environ|\$\{?[A-Z][A-Z0-9_]*(?:API_KEY|_TOKEN|_SECRET|SECRET_KEY|PASSWORD|PASSWD|ACCESS_KEY(?:_ID)?)\b|\b(?:printenv|env)[\x60\x27\x22])/i],
    [EXFILTRATION, /\b(?:attach|include|paste|append|put|insert|embed)\b[^\n]{0,60}?(?:\.env\b|\.ssh\/|\.aws\/|id_(?:rsa|dsa|ecdsa|ed25519)(?:$|[^A-Za-z0-9_.])|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.docker\/config|\.kube\/config|kubeconfig|\/etc\/shadow|\.pgpass|\/proc\/self\/environ|\$\{?[A-Z][A-Z0-9_]*(?:API_KEY|_TOKEN|_SECRET|SECRET_KEY|PASSWORD|PASSWD|ACCESS_KEY(?:_ID)?)\b|\b(?:printenv|env)[\x60\x27\x22])[^\n]{0,80}?\b(?:to|in|into)\s+(?:your|the|this|each|every)\s+(?:answer|reply|response|summary|submission|report|comment|message|output|next\s+[a-z]+)/i],
    // --- Dangerous commands ---
    [DC, /\b(curl|wget|fetch)\b[^|\n;]{0,300}\|\s*(sudo\s+(-\S+\s+)*)?(ba|z|da|k|fi)?sh\b/i],
    [DC, /\b(ba|z|da|k)?sh\s+(-c\s+)?["']?\$\(\s*(curl|wget)\b/i],
    [DC, /\b(ba|z|da|k)?sh\s+<\(\s*(curl|wget)\b/i],
    [DC, /\b(iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget)\b[^|\n]{0,300}\|\s*(iex|invoke-expression)\b/i],
    [DC, /\b(iex|invoke-expression)\s*\(*\s*(\(\s*)?new-object\s+(system\.)?net\.webclient\s*\)?\s*\.\s*downloadstring/i],
    [
        DC,
        /\brm\s+(?:-[A-Za-z]+\s+|--[a-z-]+\s+)*(?:-[A-Za-z]*[rR][A-Za-z]*|--recursive)\s+(?:-[A-Za-z]+\s+|--[a-z-]+\s+)*(?:--\s+)?["']?(?:~|\$HOME|\$\{HOME\}|\/)\/?\*?["']?(?:[\s;&|)]|$)/,
    ],
    [DC, /\b(mkfs(\.\w+)?|wipefs\s+-a)\s+\/dev\/(sd|hd|nvme|vd|xvd)/],
    [DC, /\bdd\s+[^\n]{0,100}?\bof=\/dev\/(sd|hd|nvme|vd|xvd)[a-z]*\d*(?:\s|$)/],
    [DC, /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/],
    [DC, /\bchmod\s+(?:-[A-Za-z]*R[A-Za-z]*|--recursive)\s+[0-7]{3,4}\s+["']?(?:~|\$HOME|\/)\/?\*?["']?(?:[\s;&|)]|$)/],
];
/** The patterns, for callers that list them (categories aside). */
export const PROMPT_INJECTION_PATTERNS = SCREEN_PATTERNS.map(([, p]) => p);
const INVISIBLE_SOURCE = "\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF\\u00AD\\u034F\\u180E\\uFE00-\\uFE0F\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}";
const INVISIBLE_TEST = new RegExp(`[${INVISIBLE_SOURCE}]`, "u");
const INVISIBLE_ALL = new RegExp(`[${INVISIBLE_SOURCE}]`, "gu");
/**
 * Characters that render as nothing (or only change direction) and so can split or hide a word
 * from a reader and a pattern: zero-width, bidi controls, tag characters, variation selectors.
 */
export function isInvisible(c) {
    return INVISIBLE_TEST.test(c);
}
/** Cyrillic and Greek letters that look like Latin ones. */
const CONFUSABLES = {
    а: "a", α: "a", в: "b", с: "c", ϲ: "c", ԁ: "d", е: "e", ε: "e", һ: "h", і: "i", ι: "i", ı: "i", ј: "j",
    к: "k", κ: "k", м: "m", п: "n", η: "n", о: "o", ο: "o", σ: "o", р: "p", ρ: "p", ԛ: "q", ѕ: "s", т: "t",
    τ: "t", υ: "u", ѵ: "v", ν: "v", ԝ: "w", ω: "w", х: "x", χ: "x", у: "y", γ: "y",
    А: "A", Α: "A", В: "B", Β: "B", С: "C", Ϲ: "C", Е: "E", Ε: "E", Н: "H", Η: "H", І: "I", Ι: "I", Ј: "J",
    К: "K", Κ: "K", М: "M", Μ: "M", Ν: "N", О: "O", Ο: "O", Р: "P", Ρ: "P", Ѕ: "S", Т: "T", Τ: "T", Х: "X",
    Χ: "X", У: "Y", Υ: "Y", Ζ: "Z",
};
/**
 * Folds look-alikes in words that mix them with Latin letters ("іgnоrе"), so real Russian or Greek
 * words stay as they are for their own patterns.
 */
function foldConfusables(text) {
    return text.replace(/\p{Alphabetic}+/gu, (word) => /[A-Za-z]/.test(word) && [...word].some((c) => c in CONFUSABLES) ? [...word].map((c) => CONFUSABLES[c] ?? c).join("") : word);
}
/**
 * The text as the patterns see it: invisible characters removed, NFKC (full-width ASCII becomes
 * ASCII), look-alikes folded (Cyrillic/Greek in Latin words, leetspeak digits), blanks collapsed to
 * one space and blank runs with a line break to one newline (line-start patterns still work; `\s+`
 * still spans lines), letters spelled out one by one joined.
 */
export function normaliseForDetection(text) {
    return collapse(foldLeet(unfolded(text)));
}
/** The steps of normaliseForDetection before the leetspeak fold (invisibles, NFKC, look-alikes). */
function unfolded(text) {
    return foldConfusables(text.replace(INVISIBLE_ALL, "").normalize("NFKC"));
}
/** The steps of normaliseForDetection after the leetspeak fold (blanks, spelled-out letters). */
function collapse(folded) {
    const collapsed = folded
        .replace(/\p{White_Space}+/gu, (ws) => (/[\n\r]/.test(ws) ? "\n" : " "))
        .replace(/^[ \n]+|[ \n]+$/g, "");
    return collapsed.replace(/\b(?:[A-Za-z] ){3,}[A-Za-z]\b/g, (m) => m.replace(/ /g, ""));
}
const LEET = { "0": "o", "1": "i", "3": "e", "4": "a", "@": "a", "5": "s", "7": "t" };
/** Digits and symbols used as letters in words that mix them with letters ("1gn0re", "prev10us"). */
function foldLeet(text) {
    return text.replace(/[A-Za-z0-9@]+/g, (w) => {
        const letters = (w.match(/[A-Za-z]/g) ?? []).length;
        return letters >= 2 && w.length > letters ? [...w].map((c) => LEET[c] ?? c).join("") : w;
    });
}
/**
 * Text spelled in Unicode tag characters (U+E0020..U+E007E mirror ASCII), decoded, runs separated
 * by spaces; a run right after a black flag (a subdivision flag emoji) is skipped.
 */
function hiddenTagText(text) {
    let out = "";
    let prev = 0;
    let skip = false;
    const isTag = (cp) => cp >= 0xe0020 && cp <= 0xe007e;
    for (const c of text) {
        const cp = c.codePointAt(0);
        if (isTag(cp)) {
            if (!isTag(prev)) {
                skip = prev === 0x1f3f4;
                out += " ";
            }
            if (!skip)
                out += String.fromCodePoint(cp - 0xe0000);
        }
        prev = cp;
    }
    return out.trim();
}
/** Decodes standard or URL-safe base64 (padding optional); undefined for anything else. */
export function decodeBase64(input) {
    const s = input.replace(/=+$/, "");
    if (s.length % 4 === 1)
        return undefined;
    const out = [];
    let acc = 0;
    let bits = 0;
    for (let i = 0; i < s.length; i++) {
        const b = s.charCodeAt(i);
        let v;
        if (b >= 65 && b <= 90)
            v = b - 65;
        else if (b >= 97 && b <= 122)
            v = b - 97 + 26;
        else if (b >= 48 && b <= 57)
            v = b - 48 + 52;
        else if (b === 43 || b === 45)
            v = 62;
        else if (b === 47 || b === 95)
            v = 63;
        else
            return undefined;
        acc = (acc << 6) | v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push((acc >> bits) & 0xff);
            acc &= (1 << bits) - 1;
        }
    }
    return Uint8Array.from(out);
}
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
/** Decoded text when the bytes are mostly printable UTF-8 (a hash or path decodes to noise). */
export function printableText(bytes) {
    let s;
    try {
        s = UTF8.decode(bytes);
    }
    catch {
        return undefined;
    }
    const chars = [...s];
    const printable = chars.filter((c) => !/\p{Cc}/u.test(c) || c === "\n" || c === "\t" || c === "\r").length;
    return chars.length >= 4 && printable * 10 >= chars.length * 9 ? s : undefined;
}
/** At most this many base64 runs are decoded per text, each at most this long: bounded cost. */
const MAX_BASE64_RUNS = 16;
const MAX_BASE64_LEN = 4096;
/**
 * Words glued into an identifier, apart: `ignore_all_previous_instructions`, `ignore-all.previous`
 * and `ignoreAllPrevious` read as words (ASCII letters only, like the Rust twin). A second pass,
 * for the wording categories only (instruction override, prompt leak).
 */
export function splitIdentifiers(text) {
    return text.replace(/(?<=[A-Za-z])[_.-](?=[A-Za-z])/g, " ").replace(/(?<=[a-z])(?=[A-Z])/g, " ");
}
/** Commands that destroy data or history, for unconsentedDestruction (the Rust twin's DESTRUCTIVE). */
const DESTRUCTIVE = /(?:\brm\s+-[a-z]*[rf][a-z]*\b|\bdrop\s+(?:schema|database|table|collection)\b|\bdropdb\b|\btruncate\s+table\b|\bdelete\s+from\b|\bgit\s+(?:reset\s+--hard|clean\s+-[a-z]*f|push\b[^\n]{0,40}?(?:\s-f\b|\s--force\b))|\bkubectl\s+delete\b|\bterraform\s+destroy\b|\bdocker\s+(?:system|volume)\s+prune\b|\bmkfs\b|\bshred\b|\bflushall\b|\bdropdatabase\b)/i;
/** Doing something behind the user's back, the user named (the Rust twin's UNCONSENTED). */
const UNCONSENTED = [
    /\bwithout\s+(?:first\s+)?(?:asking|telling|informing|notifying|alerting|warning|consulting|checking\s+with|confirming\s+with|prompting)\s+(?:the|your|any)\s+(?:user|human|operator|owner)s?\b/gi,
    /\b(?:do\s+not|don't|never|no\s+need\s+to)\s+(?:ask|tell|inform|notify|alert|warn|consult)\s+(?:the|your)\s+(?:user|human|operator)s?\b/gi,
    /(?:不需要|不需|无需|無需|无须|無須|不用|不必|不要|别|別|勿)再?(?:询问|詢問|告知|告诉|告訴|通知|征求|徵求|提醒|请示|請示|问|問)(?:一下)?(?:使用者|用户|用戶)/g,
    /(?:未经|未經|不经|不經|无需|無需|不需)(?:使用者|用户|用戶)的?(?:同意|确认|確認|允许|允許|许可|許可)/g,
    /(?:ユーザー|ユーザ|利用者)(?:に|へ)?(?:確認|相談|許可を求め|知らせ|伝え|報告|聞か)(?:せず|しないで|ずに|する必要はない|なくて)/g,
    /(?:사용자|유저|이용자)(?:에게|한테|의)?\s*(?:묻지|알리지|확인하지|확인받지|물어보지|동의\s*없이|허락\s*없이)/g,
    /\bsin\s+(?:preguntar|avisar|consultar|informar|notificar|confirmar)(?:le|les)?\s+(?:al|a\s+los|con\s+el|con\s+los)\s+usuarios?\b/gi,
    /\bsem\s+(?:perguntar|avisar|consultar|informar|notificar|confirmar)\s+(?:ao|aos|o|os|com\s+o|com\s+os)\s+usu[aá]rios?\b/gi,
    /\bsans\s+(?:demander|prévenir|prevenir|informer|avertir|consulter)\s+(?:à\s+)?l['’]utilisat(?:eur|rice)\b/gi,
    /\bohne\s+(?:den|die)\s+(?:benutzer|nutzer|anwender)[a-z]*\s+zu\s+(?:fragen|informieren|benachrichtigen|warnen)\b/gi,
    /не\s+(?:спрашивая|сообщая|уведомляя|предупреждая)\s+пользовател/gi,
    /بدون\s+(?:پرسیدن|اطلاع|اجازه)\s*(?:از\s*)?(?:به\s*)?کاربر/g,
    /(?:دون|بدون)\s+(?:سؤال|إبلاغ|إخبار|إذن|علم|استئذان)\s+(?:ال)?مستخدم/g,
];
/** A destructive command forbidden on its line (the Rust twin's FORBIDDEN). */
const FORBIDDEN = [
    /\b(?:never|don't|do\s+not|must\s+not|mustn't|should\s+not|shouldn't|avoid|not\s+allowed\s+to|forbidden\s+to|nunca|no\s+ejecutes|jamais|niemals|nicht)\b/i,
    /(?:não|никогда\s+не|не\s+запускай)/i,
    /(?:不要|不得|禁止|切勿|严禁|嚴禁|不可|不能|别|別|绝不|絕不)/,
    /(?:しないで|してはいけない|禁止|しては(?:なら|いけ)ない)/,
    /(?:하지\s*마|금지|안\s*됩니다|절대)/,
];
/**
 * An instruction to destroy data or history behind the user's back: a destructive command and
 * "without asking the user" (or its like) on one line, with nothing else on the line forbidding it.
 */
function unconsentedDestruction(normalised) {
    return normalised.split("\n").some((line) => {
        if (!DESTRUCTIVE.test(line) || !UNCONSENTED.some((u) => line.search(u) >= 0))
            return false;
        // The consent phrase itself may hold a negation ("do not tell the user", "不要告诉用户").
        const rest = UNCONSENTED.reduce((l, u) => l.replace(u, " "), line);
        return !FORBIDDEN.some((f) => f.test(rest));
    });
}
function matchCategories(normalised, found) {
    for (const [category, pattern] of SCREEN_PATTERNS) {
        if (!found.has(category) && pattern.test(normalised))
            found.add(category);
    }
}
/**
 * Screens text for prompt injection and dangerous commands: the categories found (empty when the
 * text reads like ordinary work notes), in INJECTION_CATEGORIES order.
 */
export function screenText(text) {
    if (!text || !String(text).trim())
        return [];
    const raw = String(text);
    const found = new Set();
    const base = unfolded(raw);
    const folded = foldLeet(base);
    const n = collapse(folded);
    matchCategories(n, found);
    // Commands are literal, and folding leetspeak rewrites them (`@env | curl` reads `aenv`,
    // `base64` reads `base6a`): the text is also screened as written, when folding changed it.
    const literal = folded !== base ? collapse(base) : undefined;
    if (literal !== undefined)
        matchCategories(literal, found);
    if (unconsentedDestruction(literal ?? n))
        found.add(INSTRUCTION_OVERRIDE);
    const split = splitIdentifiers(n);
    if (split !== n) {
        // Only the wording categories: splitting `List<SystemConfig>` must not make a role tag.
        const words = new Set();
        matchCategories(split, words);
        for (const c of [INSTRUCTION_OVERRIDE, PROMPT_LEAK])
            if (words.has(c))
                found.add(c);
    }
    const hidden = hiddenTagText(raw);
    if ((hidden.match(/[A-Za-z0-9]/g) ?? []).length >= 4) {
        found.add(HIDDEN_TEXT);
        matchCategories(normaliseForDetection(hidden), found);
    }
    let runs = 0;
    // From the text itself: normalising (leetspeak folding) would change the encoding.
    for (const m of raw.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g)) {
        if (runs++ >= MAX_BASE64_RUNS)
            break;
        const run = m[0];
        if (run.length > MAX_BASE64_LEN || !/[0-9A-Z]/.test(run))
            continue;
        const bytes = decodeBase64(run);
        const decoded = bytes ? printableText(bytes) : undefined;
        if (decoded === undefined)
            continue;
        const inner = new Set();
        matchCategories(normaliseForDetection(decoded), inner);
        if (inner.size > 0)
            found.add(ENCODED_PAYLOAD);
    }
    return INJECTION_CATEGORIES.filter((c) => found.has(c));
}
/**
 * True when the text reads like an attempt to instruct a model rather than describe work, or holds
 * a dangerous command a reviewer should see (any category of screenText).
 */
export function looksLikePromptInjection(text) {
    return screenText(text).length > 0;
}
/**
 * True when the text tries to steer a model (every category but dangerous_command): what a
 * model-facing formatter leaves out. A dangerous command in an approved record is still shown.
 */
export function isPromptInjection(text) {
    return screenText(text).some((c) => c !== DANGEROUS_COMMAND);
}
// ---------------------------------------------------------------------------------------------
// Escaping and safe formatting
// ---------------------------------------------------------------------------------------------
const ESCAPE_MAP = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&#39;",
};
/**
 * Escapes text for inclusion inside the plugin's XML-like prompt blocks: HTML-escapes & < > " '
 * (so no record can open or close a tag, `</knowhub-experiences>` included), drops control
 * characters other than \t and \n, and drops invisible characters (zero-width, bidi controls, tag
 * characters, variation selectors), so a model reads nothing a reviewer could not see. Reversible
 * for everything but the dropped characters.
 */
export function escapeForPrompt(text) {
    if (text === undefined || text === null)
        return "";
    return String(text)
        .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "")
        .replace(INVISIBLE_ALL, "")
        .replace(/\r\n?/g, "\n")
        .replace(/[&<>"']/g, (c) => ESCAPE_MAP[c] ?? c);
}
