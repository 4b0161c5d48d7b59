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

/** One rule of rules/secrets.json. */
export interface SecretRuleSpec {
  id: string;
  source: string;
  stage?: "secrets" | "personal";
  category: string;
  replace: string;
  pattern: string;
  ignore_case?: boolean;
  multiline?: boolean;
  group?: number;
  keywords?: string[];
  entropy?: number;
  require?: string[];
  stopwords?: string[];
  /** Words that, in the match or earlier on its line, say the value is not a secret. */
  veto?: string[];
  validate?: string;
}

export const SECRET_RULES: readonly SecretRuleSpec[] = [
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
export const BIP39_ENGLISH: readonly string[] = "abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert alien all alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst anchor ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety any apart apology appear apple approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive arrow art artefact artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend attitude attract auction audit august aunt author auto autumn average avocado avoid awake aware away awesome awful awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic basket battle beach bean beauty because become beef before begin behave behind believe below belt bench benefit best betray better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket blast bleak bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief bright bring brisk broccoli broken bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon canoe canvas canyon capable capital captain car carbon card cargo carpet carry cart case cash casino castle casual cat catalog catch category cattle caught cause caution cave ceiling celery cement census century cereal certain chair chalk champion change chaos chapter charge chase chat cheap check cheese chef cherry chest chicken chief child chimney choice choose chronic chuckle chunk churn cigar cinnamon circle citizen city civil claim clap clarify claw clay clean clerk clever click client cliff climb clinic clip clock clog close cloth cloud clown club clump cluster clutch coach coast coconut code coffee coil coin collect color column combine come comfort comic common company concert conduct confirm congress connect consider control convince cook cool copper copy coral core corn correct cost cotton couch country couple course cousin cover coyote crack cradle craft cram crane crash crater crawl crazy cream credit creek crew cricket crime crisp critic crop cross crouch crowd crucial cruel cruise crumble crunch crush cry crystal cube culture cup cupboard curious current curtain curve cushion custom cute cycle dad damage damp dance danger daring dash daughter dawn day deal debate debris decade december decide decline decorate decrease deer defense define defy degree delay deliver demand demise denial dentist deny depart depend deposit depth deputy derive describe desert design desk despair destroy detail detect develop device devote diagram dial diamond diary dice diesel diet differ digital dignity dilemma dinner dinosaur direct dirt disagree discover disease dish dismiss disorder display distance divert divide divorce dizzy doctor document dog doll dolphin domain donate donkey donor door dose double dove draft dragon drama drastic draw dream dress drift drill drink drip drive drop drum dry duck dumb dune during dust dutch duty dwarf dynamic eager eagle early earn earth easily east easy echo ecology economy edge edit educate effort egg eight either elbow elder electric elegant element elephant elevator elite else embark embody embrace emerge emotion employ empower empty enable enact end endless endorse enemy energy enforce engage engine enhance enjoy enlist enough enrich enroll ensure enter entire entry envelope episode equal equip era erase erode erosion error erupt escape essay essence estate eternal ethics evidence evil evoke evolve exact example excess exchange excite exclude excuse execute exercise exhaust exhibit exile exist exit exotic expand expect expire explain expose express extend extra eye eyebrow fabric face faculty fade faint faith fall false fame family famous fan fancy fantasy farm fashion fat fatal father fatigue fault favorite feature february federal fee feed feel female fence festival fetch fever few fiber fiction field figure file film filter final find fine finger finish fire firm first fiscal fish fit fitness fix flag flame flash flat flavor flee flight flip float flock floor flower fluid flush fly foam focus fog foil fold follow food foot force forest forget fork fortune forum forward fossil foster found fox fragile frame frequent fresh friend fringe frog front frost frown frozen fruit fuel fun funny furnace fury future gadget gain galaxy gallery game gap garage garbage garden garlic garment gas gasp gate gather gauge gaze general genius genre gentle genuine gesture ghost giant gift giggle ginger giraffe girl give glad glance glare glass glide glimpse globe gloom glory glove glow glue goat goddess gold good goose gorilla gospel gossip govern gown grab grace grain grant grape grass gravity great green grid grief grit grocery group grow grunt guard guess guide guilt guitar gun gym habit hair half hammer hamster hand happy harbor hard harsh harvest hat have hawk hazard head health heart heavy hedgehog height hello helmet help hen hero hidden high hill hint hip hire history hobby hockey hold hole holiday hollow home honey hood hope horn horror horse hospital host hotel hour hover hub huge human humble humor hundred hungry hunt hurdle hurry hurt husband hybrid ice icon idea identify idle ignore ill illegal illness image imitate immense immune impact impose improve impulse inch include income increase index indicate indoor industry infant inflict inform inhale inherit initial inject injury inmate inner innocent input inquiry insane insect inside inspire install intact interest into invest invite involve iron island isolate issue item ivory jacket jaguar jar jazz jealous jeans jelly jewel job join joke journey joy judge juice jump jungle junior junk just kangaroo keen keep ketchup key kick kid kidney kind kingdom kiss kit kitchen kite kitten kiwi knee knife knock know lab label labor ladder lady lake lamp language laptop large later latin laugh laundry lava law lawn lawsuit layer lazy leader leaf learn leave lecture left leg legal legend leisure lemon lend length lens leopard lesson letter level liar liberty library license life lift light like limb limit link lion liquid list little live lizard load loan lobster local lock logic lonely long loop lottery loud lounge love loyal lucky luggage lumber lunar lunch luxury lyrics machine mad magic magnet maid mail main major make mammal man manage mandate mango mansion manual maple marble march margin marine market marriage mask mass master match material math matrix matter maximum maze meadow mean measure meat mechanic medal media melody melt member memory mention menu mercy merge merit merry mesh message metal method middle midnight milk million mimic mind minimum minor minute miracle mirror misery miss mistake mix mixed mixture mobile model modify mom moment monitor monkey monster month moon moral more morning mosquito mother motion motor mountain mouse move movie much muffin mule multiply muscle museum mushroom music must mutual myself mystery myth naive name napkin narrow nasty nation nature near neck need negative neglect neither nephew nerve nest net network neutral never news next nice night noble noise nominee noodle normal north nose notable note nothing notice novel now nuclear number nurse nut oak obey object oblige obscure observe obtain obvious occur ocean october odor off offer office often oil okay old olive olympic omit once one onion online only open opera opinion oppose option orange orbit orchard order ordinary organ orient original orphan ostrich other outdoor outer output outside oval oven over own owner oxygen oyster ozone pact paddle page pair palace palm panda panel panic panther paper parade parent park parrot party pass patch path patient patrol pattern pause pave payment peace peanut pear peasant pelican pen penalty pencil people pepper perfect permit person pet phone photo phrase physical piano picnic picture piece pig pigeon pill pilot pink pioneer pipe pistol pitch pizza place planet plastic plate play please pledge pluck plug plunge poem poet point polar pole police pond pony pool popular portion position possible post potato pottery poverty powder power practice praise predict prefer prepare present pretty prevent price pride primary print priority prison private prize problem process produce profit program project promote proof property prosper protect proud provide public pudding pull pulp pulse pumpkin punch pupil puppy purchase purity purpose purse push put puzzle pyramid quality quantum quarter question quick quit quiz quote rabbit raccoon race rack radar radio rail rain raise rally ramp ranch random range rapid rare rate rather raven raw razor ready real reason rebel rebuild recall receive recipe record recycle reduce reflect reform refuse region regret regular reject relax release relief rely remain remember remind remove render renew rent reopen repair repeat replace report require rescue resemble resist resource response result retire retreat return reunion reveal review reward rhythm rib ribbon rice rich ride ridge rifle right rigid ring riot ripple risk ritual rival river road roast robot robust rocket romance roof rookie room rose rotate rough round route royal rubber rude rug rule run runway rural sad saddle sadness safe sail salad salmon salon salt salute same sample sand satisfy satoshi sauce sausage save say scale scan scare scatter scene scheme school science scissors scorpion scout scrap screen script scrub sea search season seat second secret section security seed seek segment select sell seminar senior sense sentence series service session settle setup seven shadow shaft shallow share shed shell sheriff shield shift shine ship shiver shock shoe shoot shop short shoulder shove shrimp shrug shuffle shy sibling sick side siege sight sign silent silk silly silver similar simple since sing siren sister situate six size skate sketch ski skill skin skirt skull slab slam sleep slender slice slide slight slim slogan slot slow slush small smart smile smoke smooth snack snake snap sniff snow soap soccer social sock soda soft solar soldier solid solution solve someone song soon sorry sort soul sound soup source south space spare spatial spawn speak special speed spell spend sphere spice spider spike spin spirit split spoil sponsor spoon sport spot spray spread spring spy square squeeze squirrel stable stadium staff stage stairs stamp stand start state stay steak steel stem step stereo stick still sting stock stomach stone stool story stove strategy street strike strong struggle student stuff stumble style subject submit subway success such sudden suffer sugar suggest suit summer sun sunny sunset super supply supreme sure surface surge surprise surround survey suspect sustain swallow swamp swap swarm swear sweet swift swim swing switch sword symbol symptom syrup system table tackle tag tail talent talk tank tape target task taste tattoo taxi teach team tell ten tenant tennis tent term test text thank that theme then theory there they thing this thought three thrive throw thumb thunder ticket tide tiger tilt timber time tiny tip tired tissue title toast tobacco today toddler toe together toilet token tomato tomorrow tone tongue tonight tool tooth top topic topple torch tornado tortoise toss total tourist toward tower town toy track trade traffic tragic train transfer trap trash travel tray treat tree trend trial tribe trick trigger trim trip trophy trouble truck true truly trumpet trust truth try tube tuition tumble tuna tunnel turkey turn turtle twelve twenty twice twin twist two type typical ugly umbrella unable unaware uncle uncover under undo unfair unfold unhappy uniform unique unit universe unknown unlock until unusual unveil update upgrade uphold upon upper upset urban urge usage use used useful useless usual utility vacant vacuum vague valid valley valve van vanish vapor various vast vault vehicle velvet vendor venture venue verb verify version very vessel veteran viable vibrant vicious victory video view village vintage violin virtual virus visa visit visual vital vivid vocal voice void volcano volume vote voyage wage wagon wait walk wall walnut want warfare warm warrior wash wasp waste water wave way wealth weapon wear weasel weather web wedding weekend weird welcome west wet whale what wheat wheel when where whip whisper wide width wife wild will win window wine wing wink winner winter wire wisdom wise wish witness wolf woman wonder wood wool word work world worry worth wrap wreck wrestle wrist write wrong yard year yellow you young youth zebra zero zone zoo".split(" ");
