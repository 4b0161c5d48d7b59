#!/usr/bin/env python3
"""Writes blind4.jsonl: a fourth held-out set of secrets, personal data and benign look-alikes.

Written blind to the redaction rules, their tests, the other case sets and every measured result.
Every value is synthetic, drawn from a seeded generator in the shape that each provider or
authority publishes (prefix, length, alphabet). Numbers that carry a check digit are computed
valid for secrets and made to fail the check for the `number_failing_check` look-alikes; the
algorithm used for each is written next to its generator below and re-checked by an independent
validator before the file is written. Deterministic (seeded RNG, no clock, standard library only):
    python3 testdata/secrets/blind4/build_blind4.py
"""
import base64
import json
import os
import random
import string
import urllib.parse

R = random.Random(0xB1D4_1202)
UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
ALNUM = UP + LO + DG
LOWNUM = LO + DG
UPNUM = UP + DG
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = UP + "234567"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

FAMILIES = {"cloud", "token", "password", "dsn", "http", "pem", "contact", "national_id",
            "financial", "network", "path"}
LANGS = {"zh", "zh-Hant", "ja", "ko", "de", "fr", "es", "pt", "ru", "it", "vi", "th", "ar", "tr",
         "id", "pl", "nl", "sv", "fi", "da", "nb"}

CASES = []
COUNTERS = {}
CHECKS = []  # (case id, algorithm, value, expected validity)


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def pick(seq):
    return R.choice(seq)


def add(kind, category, family, text, secret=None, lang=None, check=None):
    n = COUNTERS.get((kind, category), 0) + 1
    COUNTERS[(kind, category)] = n
    cid = f"{'s' if kind == 'secret' else 'b'}-{category}-{n:02d}"
    case = {"id": cid, "kind": kind, "category": category, "family": family, "text": text}
    if kind == "secret":
        assert secret and secret in text, (cid, secret, text)
        case["secret"] = secret
    if lang and lang != "en":
        assert lang in LANGS, (cid, lang)
        case["lang"] = lang
    if check is not None:
        CHECKS.append((cid, check[0], check[1], kind == "secret"))
    CASES.append(case)


def S(category, family, text, secret, lang=None, check=None):
    add("secret", category, family, text, secret, lang, check)


def B(category, text, lang=None, check=None):
    add("benign", category, "benign", text, None, lang, check)


def b64(data):
    if isinstance(data, str):
        data = data.encode()
    return base64.b64encode(data).decode()


def b64u(data):
    if isinstance(data, str):
        data = data.encode()
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def rbytes(n):
    return bytes(R.randrange(256) for _ in range(n))


def uuid4():
    h = rs(HEX, 32)
    h = h[:12] + "4" + h[13:16] + pick("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def grp(s, sizes, sep=" "):
    out, i = [], 0
    for n in sizes:
        out.append(s[i:i + n])
        i += n
    assert i == len(s), (s, sizes)
    return sep.join(out)


def pw(n=None, specials="!@#^*_-+=.?"):
    """A human-ish strong password: letters, digits and a few specials, never a quote or space;
    it starts and ends with a letter or digit so that prose punctuation around it stays apart."""
    n = n or R.randint(12, 20)
    while True:
        p = rs(ALNUM + specials, n)
        if (any(c in DG for c in p) and any(c in UP for c in p) and any(c in LO for c in p)
                and p[0] in ALNUM and p[-1] in ALNUM):
            return p


def pw_words():
    """A passphrase of the kind people choose: words, digits and a symbol."""
    words = ["Harbor", "Maple", "Quartz", "Lantern", "Falcon", "Cobalt", "Juniper", "Saffron",
             "Orbit", "Granite", "Willow", "Ember", "Tundra", "Meadow", "Pixel", "Velvet"]
    return pick(words) + pick("!@#$%&*") + pick(words).lower() + str(R.randint(10, 9999))


def jwt(payload, alg="RS256", sig_bytes=256, kid=None):
    header = {"alg": alg, "typ": "JWT"}
    if kid:
        header["kid"] = kid
    h = b64u(json.dumps(header, separators=(",", ":")))
    p = b64u(json.dumps(payload, separators=(",", ":")))
    return f"{h}.{p}.{b64u(rbytes(sig_bytes))}"


# ---------------------------------------------------------------------------------------------
# Check-digit algorithms. Each generator has an independent validator in VALIDATORS below.
# ---------------------------------------------------------------------------------------------

def digits_only(s):
    return "".join(c for c in s if c.isdigit())


# Luhn (ISO/IEC 7812-1): payment cards, Canadian SIN, Swedish personnummer.
def luhn_digit(payload):
    total = 0
    for i, ch in enumerate(reversed(payload)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(s):
    d = digits_only(s)
    total = 0
    for i, ch in enumerate(reversed(d)):
        x = int(ch)
        if i % 2 == 1:
            x *= 2
            if x > 9:
                x -= 9
        total += x
    return total % 10 == 0


def card(prefix, length):
    body = prefix + rs(DG, length - len(prefix) - 1)
    return body + luhn_digit(body)


def break_last(s):
    """Replace the last digit by another one: a single-digit change always fails Luhn, mod 97,
    mod 11 and the other checks used here (re-verified by the validators)."""
    i = max(j for j, c in enumerate(s) if c.isdigit())
    d = int(s[i])
    return s[:i] + str((d + R.randint(1, 9)) % 10) + s[i + 1:]


# IBAN (ISO 13616, mod 97-10 of ISO 7064): move the first four characters to the end, letters to
# 10..35, the number mod 97 must be 1. National checks computed as well for FR (RIB key), ES (DC),
# BE (mod 97 pair), IT (CIN), PT (NIB mod 97) and NO (mod 11).
def iban_digits(s):
    return "".join(str(int(c, 36)) for c in s)


def iban_make(cc, bban):
    chk = 98 - int(iban_digits(bban + cc + "00")) % 97
    return f"{cc}{chk:02d}{bban}"


def iban_ok(s):
    s = s.replace(" ", "")
    return len(s) > 8 and int(iban_digits(s[4:] + s[:4])) % 97 == 1


IT_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]


def it_val(c, odd):
    idx = int(c) if c.isdigit() else ord(c) - 65
    return IT_ODD[idx] if odd else idx


def bban(cc):
    if cc == "DE":
        b = rs(DG, 18)
    elif cc == "FR":
        bank, branch, acct = rs(DG, 5), rs(DG, 5), rs(DG, 11)
        key = 97 - ((89 * int(bank) + 15 * int(branch) + 3 * int(acct)) % 97)
        b = f"{bank}{branch}{acct}{key:02d}"
    elif cc == "GB":
        b = pick(["NWBK", "BARC", "LOYD", "HBUK", "MIDL", "MONZ"]) + rs(DG, 14)
    elif cc == "IE":
        b = pick(["AIBK", "BOFI", "IPBS"]) + rs(DG, 14)
    elif cc == "ES":
        bank, branch, acct = rs(DG, 4), rs(DG, 4), rs(DG, 10)

        def dc(ds, w):
            r = 11 - sum(int(a) * b for a, b in zip(ds, w)) % 11
            return {10: 1, 11: 0}.get(r, r)
        d1 = dc("00" + bank + branch, [1, 2, 4, 8, 5, 10, 9, 7, 3, 6])
        d2 = dc(acct, [1, 2, 4, 8, 5, 10, 9, 7, 3, 6])
        b = f"{bank}{branch}{d1}{d2}{acct}"
    elif cc == "NL":
        b = pick(["ABNA", "INGB", "RABO", "TRIO", "SNSB", "KNAB"]) + rs(DG, 10)
    elif cc == "IT":
        rest = rs(DG, 5) + rs(DG, 5) + rs(DG, 12)
        cin = chr(65 + sum(it_val(c, i % 2 == 0) for i, c in enumerate(rest)) % 26)
        b = cin + rest
    elif cc == "CH":
        b = rs(DG, 17)
    elif cc == "BE":
        first = rs(DG, 10)
        k = int(first) % 97 or 97
        b = f"{first}{k:02d}"
    elif cc == "PL":
        b = rs(DG, 24)
    elif cc == "AT":
        b = rs(DG, 16)
    elif cc == "PT":
        first = rs(DG, 19)
        k = 98 - (int(first) * 100) % 97
        b = f"{first}{k:02d}"
    elif cc == "SE":
        b = rs(DG, 20)
    elif cc == "FI":
        b = rs(DG, 14)
    elif cc == "DK":
        b = rs(DG, 14)
    elif cc == "NO":
        while True:
            first = rs(DG, 10)
            r = 11 - sum(int(a) * w for a, w in zip(first, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2])) % 11
            if r != 10:
                b = first + str(0 if r == 11 else r)
                break
    elif cc == "BR":
        b = rs(DG, 23) + "C" + "1"
    elif cc == "TR":
        b = rs(DG, 5) + "0" + rs(DG, 16)
    elif cc == "SA":
        b = rs(DG, 20)
    elif cc == "AE":
        b = rs(DG, 19)
    elif cc == "LU":
        b = rs(DG, 16)
    else:
        raise ValueError(cc)
    return b


IBAN_LEN = {"DE": 22, "FR": 27, "GB": 22, "IE": 22, "ES": 24, "NL": 18, "IT": 27, "CH": 21,
            "BE": 16, "PL": 28, "AT": 20, "PT": 25, "SE": 24, "FI": 18, "DK": 18, "NO": 15,
            "BR": 29, "TR": 26, "SA": 24, "AE": 23, "LU": 20}


def iban(cc, spaced=False):
    s = iban_make(cc, bban(cc))
    assert len(s) == IBAN_LEN[cc], (cc, s)
    if spaced:
        return " ".join(s[i:i + 4] for i in range(0, len(s), 4))
    return s


# CN resident identity number (GB 11643-1999): ISO 7064 MOD 11-2 over 17 digits.
CN_W = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]


def cn_check(s17):
    return "10X98765432"[sum(int(a) * b for a, b in zip(s17, CN_W)) % 11]


def cn_id():
    region = pick(["110105", "310115", "440305", "330106", "510107", "420111", "320102",
                   "370202", "210203", "500103", "610113", "350203", "430104", "120104"])
    s17 = region + f"{R.randint(1960, 2003)}{R.randint(1, 12):02d}{R.randint(1, 28):02d}" + rs(DG, 3)
    return s17 + cn_check(s17)


def cn_ok(s):
    s = s.replace(" ", "").replace("-", "").upper()
    if len(s) != 18 or not s[:17].isdigit():
        return False
    total = sum(int(a) * b for a, b in zip(s[:17], CN_W)) + (10 if s[17] == "X" else int(s[17]))
    return total % 11 == 1


# Hong Kong identity card: one or two letters (a missing first letter counts as space = 36),
# six digits, check 0-9 or A; weights 9..2 over the eight symbols, total incl. check = 0 mod 11.
def hk_val(c):
    return 36 if c == " " else (int(c) if c.isdigit() else ord(c) - 55)


def hkid_parts():
    letters = pick([pick(UP), pick(UP) + pick(UP)]) if R.random() < 0.2 else pick("ACDEGHKMPRVYZ")
    digits = rs(DG, 6)
    body = letters.rjust(2) + digits
    s = sum(hk_val(c) * w for c, w in zip(body, [9, 8, 7, 6, 5, 4, 3, 2]))
    r = (11 - s % 11) % 11
    return letters, digits, ("A" if r == 10 else str(r))


def hkid_ok(s):
    s = s.replace("(", "").replace(")", "").replace(" ", "")
    letters = "".join(c for c in s[:-7] if c.isalpha())
    digits, chk = s[-7:-1], s[-1]
    if not (1 <= len(letters) <= 2 and digits.isdigit()):
        return False
    body = letters.rjust(2) + digits
    total = sum(hk_val(c) * w for c, w in zip(body, [9, 8, 7, 6, 5, 4, 3, 2]))
    total += 10 if chk == "A" else int(chk)
    return total % 11 == 0


# Taiwan national id: letter (mapped to two digits) + gender digit 1/2 + 7 digits + check;
# weights 1,9 on the letter's digits then 8..1, check weight 1, total = 0 mod 10.
TW_L = dict(A=10, B=11, C=12, D=13, E=14, F=15, G=16, H=17, I=34, J=18, K=19, L=20, M=21, N=22,
            O=35, P=23, Q=24, R=25, S=26, T=27, U=28, V=29, W=32, X=30, Y=31, Z=33)


def tw_sum(s9):
    n = TW_L[s9[0]]
    return n // 10 + (n % 10) * 9 + sum(int(d) * w for d, w in zip(s9[1:], [8, 7, 6, 5, 4, 3, 2, 1]))


def tw_id():
    s9 = pick("ABEFHKNPR") + pick("12") + rs(DG, 7)
    return s9 + str((10 - tw_sum(s9) % 10) % 10)


def tw_ok(s):
    return len(s) == 10 and (tw_sum(s[:9]) + int(s[9])) % 10 == 0


# Japan Individual Number (My Number, 12 digits): P(n) the n-th digit from the right of the first
# 11, Q(n) = n+1 for n <= 6 else n-5; r = sum(P*Q) mod 11; check = 0 if r <= 1 else 11 - r.
def mynumber_digit(d11):
    s = sum(int(d11[11 - n]) * (n + 1 if n <= 6 else n - 5) for n in range(1, 12))
    r = s % 11
    return "0" if r <= 1 else str(11 - r)


def mynumber():
    d11 = str(R.randint(1, 9)) + rs(DG, 10)
    return d11 + mynumber_digit(d11)


def mynumber_ok(s):
    d = digits_only(s)
    return len(d) == 12 and mynumber_digit(d[:11]) == d[11]


# Korea resident registration number (pre-2020 scheme): weights 2..9,2..5 over 12 digits,
# check = (11 - sum mod 11) mod 10.
KR_W = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]


def kr_rrn():
    y = R.randint(60, 99)
    s12 = f"{y:02d}{R.randint(1, 12):02d}{R.randint(1, 28):02d}" + pick("12") + rs(DG, 5)
    c = (11 - sum(int(a) * b for a, b in zip(s12, KR_W)) % 11) % 10
    return f"{s12[:6]}-{s12[6:]}{c}"


def kr_ok(s):
    d = digits_only(s)
    return len(d) == 13 and (11 - sum(int(a) * b for a, b in zip(d[:12], KR_W)) % 11) % 10 == int(d[12])


# US SSN: no check digit; area 001-899 except 666, group 01-99, serial 0001-9999.
def ssn():
    while True:
        a = R.randint(1, 899)
        if a != 666:
            return f"{a:03d}-{R.randint(1, 99):02d}-{R.randint(1, 9999):04d}"


def ssn_ok(s):
    d = digits_only(s)
    a, g, n = int(d[:3]), int(d[3:5]), int(d[5:])
    return len(d) == 9 and 0 < a < 900 and a != 666 and g > 0 and n > 0


# US ITIN: 9XX-GG-XXXX with GG in 50-65, 70-88, 90-92 or 94-99.
def itin():
    g = pick(list(range(50, 66)) + list(range(70, 89)) + [90, 91, 92] + list(range(94, 100)))
    return f"9{R.randint(0, 99):02d}-{g:02d}-{R.randint(1, 9999):04d}"


def itin_ok(s):
    d = digits_only(s)
    g = int(d[3:5])
    return len(d) == 9 and d[0] == "9" and (50 <= g <= 65 or 70 <= g <= 88 or g in (90, 91, 92) or 94 <= g <= 99)


# Canadian SIN: 9 digits, Luhn; the first digit is not 0 or 8.
def sin():
    body = pick("1234567") + rs(DG, 7)
    return body + luhn_digit(body)


# UK National Insurance number: prefix letters (not D F I Q U V; second not O; not BG GB NK KN
# TN NT ZZ), six digits, suffix A-D. Format only, no check digit.
def nino():
    first = [c for c in UP if c not in "DFIQUV"]
    second = [c for c in UP if c not in "DFIQUVO"]
    while True:
        p = pick(first) + pick(second)
        if p not in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
            return p + rs(DG, 6) + pick("ABCD")


# German Steuerliche Identifikationsnummer: 11 digits, first not 0, among the first ten exactly
# one digit occurs twice; check digit by ISO 7064 MOD 11,10.
def mod11_10(ds):
    product = 10
    for d in ds:
        s = (int(d) + product) % 10 or 10
        product = (s * 2) % 11
    c = 11 - product
    return 0 if c == 10 else c


def de_taxid():
    while True:
        nine = R.sample(DG, 9)
        dup = pick(nine)
        pos = R.randint(0, 9)
        ten = nine[:pos] + [dup] + nine[pos:]
        if ten[0] != "0":
            s = "".join(ten)
            return s + str(mod11_10(s))


def de_taxid_ok(s):
    d = digits_only(s)
    return len(d) == 11 and d[0] != "0" and mod11_10(d[:10]) == int(d[10])


# ICAO 9303 check digit (weights 7,3,1; '<' = 0, A = 10 ... Z = 35): MRZ fields, the German
# Personalausweis serial.
def mrz_digit(s):
    total = 0
    for i, c in enumerate(s):
        v = 0 if c == "<" else (int(c) if c.isdigit() else ord(c) - 55)
        total += v * [7, 3, 1][i % 3]
    return str(total % 10)


# French NIR (numéro de sécurité sociale): 13 digits + key = 97 - (number mod 97).
def fr_nir():
    n = (pick("12") + f"{R.randint(50, 99):02d}{R.randint(1, 12):02d}" + f"{R.randint(1, 95):02d}"
         + f"{R.randint(1, 990):03d}" + f"{R.randint(1, 999):03d}")
    return n, f"{97 - int(n) % 97:02d}"


def fr_nir_ok(s):
    d = digits_only(s)
    return len(d) == 15 and 97 - int(d[:13]) % 97 == int(d[13:])


# Spanish DNI: 8 digits + letter TRWAGMYFPDXBNJZSQVHLCKE[n mod 23]; NIE: X/Y/Z = 0/1/2 first.
DNI_L = "TRWAGMYFPDXBNJZSQVHLCKE"


def es_dni():
    n = rs(DG, 8)
    return n + DNI_L[int(n) % 23]


def es_nie():
    p, n = pick("XYZ"), rs(DG, 7)
    return p + n + DNI_L[int(str("XYZ".index(p)) + n) % 23]


def es_ok(s):
    s = s.replace("-", "").upper()
    if s[0] in "XYZ":
        s = str("XYZ".index(s[0])) + s[1:]
    return DNI_L[int(s[:8]) % 23] == s[8]


# Italian codice fiscale: 15 symbols then a check letter, chr(65 + (sum of odd-table values at
# odd positions + even values at even positions) mod 26).
def it_cf_check(s15):
    return chr(65 + sum(it_val(c, i % 2 == 0) for i, c in enumerate(s15)) % 26)


def it_cf():
    cons = "BCDFGHLMNPRSTVZ"
    s15 = (rs(cons, 3) + rs(cons, 3) + f"{R.randint(55, 99):02d}" + pick("ABCDEHLMPRST")
           + f"{R.randint(1, 28) + pick([0, 40]):02d}" + pick("ABCDEFGHLMZ") + f"{R.randint(1, 999):03d}")
    return s15 + it_cf_check(s15)


def it_cf_ok(s):
    return len(s) == 16 and it_cf_check(s[:15]) == s[15]


# Dutch BSN: 9 digits, 9*d1 + 8*d2 + ... + 2*d8 - d9 = 0 mod 11.
def bsn():
    while True:
        d = str(R.randint(1, 9)) + rs(DG, 7)
        c = sum(int(x) * w for x, w in zip(d, range(9, 1, -1))) % 11
        if c != 10:
            return d + str(c)


def bsn_ok(s):
    d = digits_only(s)
    return len(d) == 9 and (sum(int(x) * w for x, w in zip(d[:8], range(9, 1, -1))) - int(d[8])) % 11 == 0


# Belgian national register number: YYMMDD SSS CC, CC = 97 - (YYMMDDSSS mod 97) (born before 2000).
def be_nrn():
    n = f"{R.randint(50, 99):02d}{R.randint(1, 12):02d}{R.randint(1, 28):02d}{R.randint(1, 997):03d}"
    c = 97 - int(n) % 97
    return f"{n[:2]}.{n[2:4]}.{n[4:6]}-{n[6:]}.{c:02d}"


def be_ok(s):
    d = digits_only(s)
    return len(d) == 11 and (97 - int(d[:9]) % 97 == int(d[9:]) or 97 - int("2" + d[:9]) % 97 == int(d[9:]))


# Polish PESEL: weights 1,3,7,9,1,3,7,9,1,3; check = (10 - sum mod 10) mod 10.
PESEL_W = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]


def pesel():
    y = R.randint(1955, 2005)
    m = R.randint(1, 12) + (20 if y >= 2000 else 0)
    s10 = f"{y % 100:02d}{m:02d}{R.randint(1, 28):02d}" + rs(DG, 4)
    return s10 + str((10 - sum(int(a) * b for a, b in zip(s10, PESEL_W)) % 10) % 10)


def pesel_ok(s):
    return len(s) == 11 and (10 - sum(int(a) * b for a, b in zip(s[:10], PESEL_W)) % 10) % 10 == int(s[10])


# Portuguese NIF: 9 digits, first 1/2/3; weights 9..2; r = sum mod 11; check = 0 if r < 2 else 11 - r.
def pt_nif():
    d = pick("123") + rs(DG, 7)
    r = sum(int(x) * w for x, w in zip(d, range(9, 1, -1))) % 11
    return d + str(0 if r < 2 else 11 - r)


def pt_nif_ok(s):
    r = sum(int(x) * w for x, w in zip(s[:8], range(9, 1, -1))) % 11
    return len(s) == 9 and int(s[8]) == (0 if r < 2 else 11 - r)


# Swedish personnummer: YYMMDD-NNNC, Luhn over the ten digits.
def se_pnr():
    p = f"{R.randint(50, 99):02d}{R.randint(1, 12):02d}{R.randint(1, 28):02d}" + rs(DG, 3)
    return f"{p[:6]}-{p[6:]}{luhn_digit(p)}"


# Finnish henkilötunnus: DDMMYY, century sign, NNN (002-899), check = table[DDMMYYNNN mod 31].
FI_T = "0123456789ABCDEFHJKLMNPRSTUVWXY"


def fi_hetu():
    y = R.randint(1950, 2005)
    dd = f"{R.randint(1, 28):02d}{R.randint(1, 12):02d}{y % 100:02d}"
    nnn = f"{R.randint(2, 899):03d}"
    return f"{dd}{'-' if y < 2000 else 'A'}{nnn}{FI_T[int(dd + nnn) % 31]}"


def fi_ok(s):
    return FI_T[int(s[:6] + s[7:10]) % 31] == s[10]


# Danish CPR: DDMMYY-SSSS, weights 4,3,2,7,6,5,4,3,2,1, sum = 0 mod 11 (the traditional rule).
DK_W = [4, 3, 2, 7, 6, 5, 4, 3, 2, 1]


def dk_cpr():
    while True:
        d9 = f"{R.randint(1, 28):02d}{R.randint(1, 12):02d}{R.randint(50, 99):02d}" + rs(DG, 3)
        c = (11 - sum(int(a) * b for a, b in zip(d9, DK_W)) % 11) % 11
        if c != 10:
            return f"{d9[:6]}-{d9[6:]}{c}"


def dk_ok(s):
    d = digits_only(s)
    return len(d) == 10 and sum(int(a) * b for a, b in zip(d, DK_W)) % 11 == 0


# Norwegian fødselsnummer: DDMMYY III K1 K2, two mod-11 checks.
NO_W1 = [3, 7, 6, 1, 8, 9, 4, 5, 2]
NO_W2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]


def no_k(ds, w):
    k = 11 - sum(int(a) * b for a, b in zip(ds, w)) % 11
    return 0 if k == 11 else k


def no_fnr():
    while True:
        d9 = f"{R.randint(1, 28):02d}{R.randint(1, 12):02d}{R.randint(50, 99):02d}" + f"{R.randint(0, 499):03d}"
        k1 = no_k(d9, NO_W1)
        if k1 == 10:
            continue
        k2 = no_k(d9 + str(k1), NO_W2)
        if k2 == 10:
            continue
        return f"{d9}{k1}{k2}"


def no_ok(s):
    return len(s) == 11 and no_k(s[:9], NO_W1) == int(s[9]) and no_k(s[:10], NO_W2) == int(s[10])


# Austrian Sozialversicherungsnummer: NNNC DDMMYY, check C = sum(weights 3,7,9,-,5,8,4,2,1,6) mod 11.
AT_W = [3, 7, 9, 0, 5, 8, 4, 2, 1, 6]


def at_svnr():
    while True:
        s = str(R.randint(1, 9)) + rs(DG, 2) + "0" + f"{R.randint(1, 28):02d}{R.randint(1, 12):02d}{R.randint(50, 99):02d}"
        c = sum(int(a) * b for a, b in zip(s, AT_W)) % 11
        if c != 10:
            return s[:3] + str(c) + " " + s[4:]


def at_ok(s):
    d = digits_only(s)
    return len(d) == 10 and sum(int(a) * b for a, b in zip(d, AT_W)) % 11 == int(d[3])


# Swiss AHV/AVS number: 756 + 9 digits + EAN-13 check (weights 1,3 from the left).
def ean13_digit(d12):
    return str((10 - sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(d12)) % 10) % 10)


def ch_ahv():
    d12 = "756" + rs(DG, 9)
    d = d12 + ean13_digit(d12)
    return f"{d[:3]}.{d[3:7]}.{d[7:11]}.{d[11:]}"


def ean13_ok(s):
    d = digits_only(s)
    return len(d) == 13 and ean13_digit(d[:12]) == d[12]


# Irish PPS number: 7 digits, weights 8..2, plus 9 x value of an optional second letter (A = 1,
# W = 0); check letter = "WABCDEFGHIJKLMNOPQRSTUV"[sum mod 23].
PPS_L = "WABCDEFGHIJKLMNOPQRSTUV"


def ie_pps(second=""):
    d = rs(DG, 7)
    s = sum(int(x) * w for x, w in zip(d, range(8, 1, -1))) + (9 * PPS_L.index(second) if second else 0)
    return d + PPS_L[s % 23] + second


def ie_ok(s):
    d, chk, second = s[:7], s[7], s[8:]
    t = sum(int(x) * w for x, w in zip(d, range(8, 1, -1))) + (9 * PPS_L.index(second) if second else 0)
    return PPS_L[t % 23] == chk


# Brazilian CPF: two mod-11 digits (weights 10..2 then 11..2; d = sum*10 mod 11 mod 10).
def cpf_digits(d9):
    d1 = sum(int(x) * w for x, w in zip(d9, range(10, 1, -1))) * 10 % 11 % 10
    d2 = sum(int(x) * w for x, w in zip(d9 + str(d1), range(11, 1, -1))) * 10 % 11 % 10
    return f"{d1}{d2}"


def cpf():
    d9 = rs(DG, 9)
    d = d9 + cpf_digits(d9)
    return f"{d[:3]}.{d[3:6]}.{d[6:9]}-{d[9:]}"


def cpf_ok(s):
    d = digits_only(s)
    return len(d) == 11 and cpf_digits(d[:9]) == d[9:]


# Brazilian CNPJ: 12 digits + two mod-11 digits (weights 5..2,9..2 then 6..2,9..2; r < 2 -> 0).
def cnpj_digit(ds, w):
    r = sum(int(a) * b for a, b in zip(ds, w)) % 11
    return "0" if r < 2 else str(11 - r)


CNPJ_W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
CNPJ_W2 = [6] + CNPJ_W1


def cnpj():
    d12 = rs(DG, 8) + "0001"
    d13 = d12 + cnpj_digit(d12, CNPJ_W1)
    d = d13 + cnpj_digit(d13, CNPJ_W2)
    return f"{d[:2]}.{d[2:5]}.{d[5:8]}/{d[8:12]}-{d[12:]}"


def cnpj_ok(s):
    d = digits_only(s)
    return len(d) == 14 and cnpj_digit(d[:12], CNPJ_W1) == d[12] and cnpj_digit(d[:13], CNPJ_W2) == d[13]


# Mexican CURP: 17 symbols + check; values 0-9, A-N = 10-23, Ñ = 24, O-Z = 25-36; weights 18..2;
# check = (10 - sum mod 10) mod 10.
CURP_A = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def curp_digit(s17):
    return str((10 - sum(CURP_A.index(c) * (18 - i) for i, c in enumerate(s17)) % 10) % 10)


def curp():
    cons = "BCDFGHJKLMNPRSTVZ"
    s17 = (pick(cons) + pick("AEIOU") + pick(cons) + pick(UP.replace("Ñ", "")) + f"{R.randint(60, 99):02d}"
           + f"{R.randint(1, 12):02d}{R.randint(1, 28):02d}" + pick("HM")
           + pick(["DF", "JC", "NL", "PL", "VZ", "GT", "MC", "QT"]) + rs(cons, 3) + pick(DG))
    return s17 + curp_digit(s17)


def curp_ok(s):
    return len(s) == 18 and curp_digit(s[:17]) == s[17]


# Indian Aadhaar: 12 digits, first 2-9, Verhoeff check digit.
VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
      [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
      [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
      [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
VP = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
      [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
      [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]
VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def verhoeff_digit(num):
    c = 0
    for i, ch in enumerate(reversed(num)):
        c = VD[c][VP[(i + 1) % 8][int(ch)]]
    return str(VINV[c])


def verhoeff_ok(s):
    c = 0
    for i, ch in enumerate(reversed(digits_only(s))):
        c = VD[c][VP[i % 8][int(ch)]]
    return c == 0


def aadhaar():
    d = pick("23456789") + rs(DG, 10)
    d = d + verhoeff_digit(d)
    return f"{d[:4]} {d[4:8]} {d[8:]}"


# Indian PAN: AAAAA9999A, fourth letter P for a person. No published check digit: format only.
def pan():
    return rs(UP, 3) + "P" + pick(UP) + rs(DG, 4) + pick(UP)


# Singapore NRIC: S/T + 7 digits + letter; weights 2,7,6,5,4,3,2, +4 for T;
# letter = "JZIHGFEDCBA"[sum mod 11].
def nric():
    p, d = pick("ST"), rs(DG, 7)
    s = sum(int(x) * w for x, w in zip(d, [2, 7, 6, 5, 4, 3, 2])) + (4 if p == "T" else 0)
    return p + d + "JZIHGFEDCBA"[s % 11]


def nric_ok(s):
    s2 = sum(int(x) * w for x, w in zip(s[1:8], [2, 7, 6, 5, 4, 3, 2])) + (4 if s[0] == "T" else 0)
    return "JZIHGFEDCBA"[s2 % 11] == s[8]


# Macau resident identity card: 1/5/7 + 6 digits + (check). No published algorithm: format only.
def macau_id():
    return pick("157") + rs(DG, 6) + f"({R.randint(0, 9)})"


# Passport MRZ (ICAO 9303 TD3, line 2).
def mrz_line2(number, nat, dob, sex, expiry, personal=""):
    number = number.ljust(9, "<")
    personal = personal.ljust(14, "<")
    pc = mrz_digit(personal) if personal.strip("<") else "<"
    line = (number + mrz_digit(number) + nat + dob + mrz_digit(dob) + sex + expiry + mrz_digit(expiry)
            + personal + (pc if pc != "<" else "0"))
    comp = line[0:10] + line[13:20] + line[21:43]
    line = line + mrz_digit(comp)
    assert len(line) == 44
    return line


def mrz_ok(line):
    ok = mrz_digit(line[0:9]) == line[9] and mrz_digit(line[13:19]) == line[19]
    ok = ok and mrz_digit(line[21:27]) == line[27]
    ok = ok and mrz_digit(line[0:10] + line[13:20] + line[21:43]) == line[43]
    return ok


VALIDATORS = {
    "luhn": luhn_ok, "iban": iban_ok, "cn_id": cn_ok, "hkid": hkid_ok, "tw_id": tw_ok,
    "mynumber": mynumber_ok, "kr_rrn": kr_ok, "ssn": ssn_ok, "itin": itin_ok,
    "de_taxid": de_taxid_ok, "fr_nir": fr_nir_ok, "es_dni": es_ok, "it_cf": it_cf_ok,
    "bsn": bsn_ok, "be_nrn": be_ok, "pesel": pesel_ok, "pt_nif": pt_nif_ok, "fi_hetu": fi_ok,
    "dk_cpr": dk_ok, "no_fnr": no_ok, "at_svnr": at_ok, "ean13": ean13_ok, "ie_pps": ie_ok,
    "cpf": cpf_ok, "cnpj": cnpj_ok, "curp": curp_ok, "verhoeff": verhoeff_ok, "nric": nric_ok,
    "mrz": mrz_ok,
    "de_ausweis": lambda s: mrz_digit(s[:9]) == s[9],
}

# ---------------------------------------------------------------------------------------------
# Provider-shaped tokens
# ---------------------------------------------------------------------------------------------


def aws_akid(prefix="AKIA"):
    return prefix + rs(UP + "234567", 16)


def aws_secret():
    return rs(ALNUM + "/+", 40)


def ghp():
    return "ghp_" + rs(ALNUM, 36)


def openai_key():
    return "sk-proj-" + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74)


def anthropic_key():
    return "sk-ant-api03-" + rs(B64URL, 93) + "AA"


def slack(prefix):
    return f"{prefix}-{R.randint(10**10, 10**12)}-{R.randint(10**10, 10**12)}-{rs(ALNUM, 24)}"


# =============================================================================================
# SECRETS: cloud
# =============================================================================================
def cloud():
    ak, sk = aws_akid(), aws_secret()
    S("aws_access_key_id", "cloud",
      f"$ cat ~/.aws/credentials\n[default]\nregion = eu-west-1\n\n[prod-deployer]\naws_access_key_id = {ak}\n"
      f"aws_secret_access_key = {sk}\n", ak)
    S("aws_secret_access_key", "cloud",
      f"$ cat ~/.aws/credentials\n[ci]\naws_access_key_id={aws_akid()}\naws_secret_access_key={sk[::-1]}\n"
      f"output=json", sk[::-1])
    ak = aws_akid()
    S("aws_access_key_id", "cloud",
      f"同事在群里发的：AK 是 {ak}，SK 我稍后私聊给你，别贴到工单里。", ak, "zh")
    sk = aws_secret()
    S("aws_secret_access_key", "cloud",
      f"$ aws configure set aws_secret_access_key {sk} --profile staging\n$ aws configure list --profile staging\n"
      f"      Name                    Value             Type    Location\n      ----                    -----             ----    --------\n"
      f"   profile                  staging           manual    --profile\naccess_key     ****************{rs(UP, 4)} shared-credentials-file\n"
      f"secret_key     ****************{sk[-4:]} shared-credentials-file", sk)
    sk = aws_secret()
    S("aws_secret_access_key", "cloud",
      "$ env | sort\nHOME=/root\nHOSTNAME=runner-7f9c\nLANG=C.UTF-8\nPATH=/usr/local/bin:/usr/bin:/bin\n"
      f"AWS_DEFAULT_REGION=ap-northeast-1\nAWS_SECRET_ACCESS_KEY={sk}\nTERM=xterm\n", sk)
    sk = aws_secret()
    state = {"mode": "managed", "type": "aws_iam_access_key", "name": "ci", "provider": "provider[\"registry.terraform.io/hashicorp/aws\"]",
             "instances": [{"schema_version": 0, "attributes": {"id": aws_akid(), "user": "ci-bot", "secret": sk,
                                                                "ses_smtp_password_v4": rs(ALNUM + "/+", 44), "status": "Active"},
                            "sensitive_attributes": []}]}
    S("aws_secret_access_key", "cloud",
      "$ terraform state pull | jq '.resources[] | select(.type==\"aws_iam_access_key\")'\n" + json.dumps(state, indent=2), sk)
    sk = aws_secret()
    S("aws_secret_access_key", "cloud",
      "In [4]: import boto3\n   ...: s3 = boto3.client('s3', region_name='us-east-2',\n"
      f"   ...:     aws_access_key_id='{aws_akid()}',\n   ...:     aws_secret_access_key='{sk}')\n"
      "   ...: s3.list_buckets()['Buckets'][:1]\nOut[4]: [{'Name': 'ml-artifacts-dev', 'CreationDate': datetime.datetime(2025, 3, 9, 11, 2, 41)}]", sk)
    sk = aws_secret()
    S("aws_secret_access_key", "cloud",
      f"IAM 콘솔에서 새로 만든 키입니다. 액세스 키 ID 는 {aws_akid()} 이고 비밀 액세스 키：{sk}", sk, "ko")
    tok = "IQoJb3JpZ2luX2VjE" + rs(B64, 380) + "=="
    S("aws_session_token", "cloud",
      "$ aws sts assume-role --role-arn arn:aws:iam::481516234200:role/deploy --role-session-name gha\n{\n    \"Credentials\": {\n"
      f"        \"AccessKeyId\": \"{aws_akid('ASIA')}\",\n        \"SecretAccessKey\": \"{aws_secret()}\",\n"
      f"        \"SessionToken\": \"{tok}\",\n        \"Expiration\": \"2026-12-02T09:14:55+00:00\"\n    }}\n}}", tok)
    sk = aws_secret()
    S("s3cfg_secret_key", "cloud",
      f"[default]\naccess_key = {aws_akid()}\nbucket_location = US\nhost_base = s3.amazonaws.com\nhost_bucket = %(bucket)s.s3.amazonaws.com\n"
      f"secret_key = {sk}\nsignature_v2 = False\nuse_https = True", sk)

    key = b64(rbytes(64))
    S("azure_storage_connection_string", "cloud",
      '{\n  "Logging": { "LogLevel": { "Default": "Information" } },\n  "ConnectionStrings": {\n'
      f'    "Blob": "DefaultEndpointsProtocol=https;AccountName=stcontosoinvoices;AccountKey={key};EndpointSuffix=core.windows.net"\n  }}\n}}', key)
    key = b64(rbytes(64))
    S("azure_storage_connection_string", "cloud",
      "Unhandled exception. Azure.RequestFailedException: Server failed to authenticate the request.\n"
      f"   Connection: DefaultEndpointsProtocol=https;AccountName=stfotoarchiv01;AccountKey={key};BlobEndpoint=https://stfotoarchiv01.blob.core.windows.net/\n"
      "   at Azure.Storage.Blobs.BlobRestClient.CreateAsync(...)", key)
    key = b64(rbytes(32))
    S("azure_service_bus_key", "cloud",
      f"SERVICEBUS_CONNECTION=\"Endpoint=sb://sb-orders-weu.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={key}\"", key)
    key = b64(rbytes(64))
    S("azure_cosmos_key", "cloud",
      f"Die Cosmos-DB-Verbindung für das Staging: AccountEndpoint=https://cosmos-kundenportal.documents.azure.com:443/;AccountKey={key}; – bitte nur im Key Vault ablegen.", key, "de")
    sec = rs(ALNUM, 3) + str(R.randint(0, 9)) + "Q~" + rs(ALNUM + "_.~-", 34)
    S("azure_client_secret", "cloud",
      "$ az ad sp create-for-rbac --name gh-actions-infra --role contributor --scopes /subscriptions/" + uuid4() + "\n"
      "Creating 'contributor' role assignment under scope ...\n{\n"
      f'  "appId": "{uuid4()}",\n  "displayName": "gh-actions-infra",\n  "password": "{sec}",\n  "tenant": "{uuid4()}"\n}}', sec)
    sec = rs(ALNUM, 3) + str(R.randint(0, 9)) + "Q~" + rs(ALNUM + "_.~-", 34)
    S("azure_client_secret", "cloud",
      f"El secreto de cliente de la app registrada en Entra ID es {sec} (caduca en 6 meses, id del tenant aparte).", sec, "es")
    sig = urllib.parse.quote(b64(rbytes(32)), safe="")
    S("azure_sas_signature", "cloud",
      f"https://stlogsexport.blob.core.windows.net/exports/2026-11.csv?sp=r&st=2026-12-01T08:00:00Z&se=2026-12-31T16:00:00Z&spr=https&sv=2022-11-02&sr=b&sig={sig}", sig)
    key = rs(HEX, 32)
    S("azure_ai_key", "cloud",
      f"curl -s https://ai-translate-jp.cognitiveservices.azure.com/translator/text/v3.0/translate?to=ja \\\n  -H \"Ocp-Apim-Subscription-Key: {key}\" \\\n  -H 'Content-Type: application/json' -d '[{{\"Text\":\"hello\"}}]'", key)

    gid, gsec = "GOOG1E" + rs(UPNUM, 55), rs(B64, 40)
    S("gcp_hmac_secret", "cloud",
      f"# ~/.boto written by gsutil config -a\n[Credentials]\ngs_access_key_id = {gid}\ngs_secret_access_key = {gsec}\n\n[GSUtil]\ndefault_project_id = analytics-prod-4411", gsec)
    gsec = rs(B64, 40)
    S("gcp_hmac_secret", "cloud",
      "$ gcloud storage hmac create sa-exporter@warehouse-prd.iam.gserviceaccount.com\n"
      f"metadata:\n  accessId: GOOG1E{rs(UPNUM, 55)}\n  etag: {rs(B64, 12)}\n  id: warehouse-prd/GOOG1E{rs(UPNUM, 20)}\n  state: ACTIVE\nsecret: {gsec}", gsec)
    k = "AIza" + rs(B64URL, 35)
    S("google_api_key", "cloud", f"# .env (server only)\nGEMINI_API_KEY={k}\nGEMINI_MODEL=gemini-2.0-flash", k)
    k = "AIza" + rs(B64URL, 35)
    S("google_api_key", "cloud",
      f"Anh ơi, khóa API Google Maps cho backend là {k}, nhớ giới hạn theo IP trước khi deploy nhé.", k, "vi")
    rt = "1//0" + rs(B64URL, 99)
    S("gcp_refresh_token", "cloud",
      '$ cat ~/.config/gcloud/application_default_credentials.json\n{\n  "account": "",\n'
      f'  "client_id": "{R.randint(10**11, 10**12)}-{rs(LOWNUM, 32)}.apps.googleusercontent.com",\n  "client_secret": "GOCSPX-{rs(B64URL, 28)}",\n  "quota_project_id": "ml-sandbox",\n  "refresh_token": "{rt}",\n  "type": "authorized_user"\n}}', rt)

    ak, sk = "LTAI5t" + rs(ALNUM, 18), rs(ALNUM, 30)
    S("alibaba_access_key_secret", "cloud",
      "from alibabacloud_oss_v2 import credentials\n"
      f"provider = credentials.StaticCredentialsProvider(\n    access_key_id=\"{ak}\",\n    access_key_secret=\"{sk}\",\n)", sk)
    sk = rs(ALNUM, 30)
    S("alibaba_access_key_secret", "cloud",
      f"阿里云 RAM 子账号 oss-uploader 的 AccessKey Secret：{sk}（AccessKey ID 另发）", sk, "zh")
    sid, sk = "AKID" + rs(ALNUM, 32), rs(ALNUM, 32)
    S("tencent_cos_secret_key", "cloud",
      f"$ coscmd config -a {sid} -s {sk} -b media-1312345678 -r ap-guangzhou\nCreated configuration file ~/.cos.conf", sk)
    sk = rs(ALNUM, 32)
    S("tencent_cloud_secret_key", "cloud",
      f"騰訊雲 API 金鑰：SecretId = AKID{rs(ALNUM, 32)}\nSecretKey = {sk}\n請勿提交到 Git。", sk, "zh-Hant")
    sk = rs(ALNUM, 32)
    S("tencent_cloud_secret_key", "cloud",
      f"$ tccli configure\nTencentCloud API secretId [None]: AKID{rs(ALNUM, 32)}\nTencentCloud API secretKey [None]: {sk}\nregion [None]: ap-shanghai\noutput [json]:", sk)
    ak, sk = rs(UPNUM, 20), rs(ALNUM, 40)
    S("huawei_obs_secret_key", "cloud",
      f"$ ./obsutil config -i={ak} -k={sk} -e=obs.cn-north-4.myhuaweicloud.com\nConfig file url:\n  /root/.obsutilconfig\nUpdate config file successfully!", sk)
    sk = rs(ALNUM, 40)
    S("huawei_obs_secret_key", "cloud",
      f"华为云 OBS 的 SK 是 {sk}，AK 在 IAM 里能查到；这台机器上的 .obsutilconfig 里也有一份。", sk, "zh")
    qsk = rs(B64URL, 40)
    S("qiniu_secret_key", "cloud",
      f"$ qshell account {rs(B64URL, 40)} {qsk} media-prod\n$ qshell buckets\nstatic-cdn\nuser-avatars", qsk)
    up = rs(ALNUM, 32)
    S("upyun_operator_password", "cloud",
      f"又拍云操作员 deploy 的密码是 {up}，给 CDN 刷新脚本用的，不要外传。", up, "zh")
    vak, vsk = "AKLT" + rs(B64URL, 40), rs(ALNUM, 56) + "=="
    S("volcengine_secret_key", "cloud",
      f"export VOLC_ACCESSKEY={vak}\nexport VOLC_SECRETKEY={vsk}\nexport VOLC_REGION=cn-beijing", vsk)
    ark = uuid4()
    S("volcengine_ark_api_key", "cloud",
      f"火山方舟的 API Key：{ark}\n调用 https://ark.cn-beijing.volces.com/api/v3/chat/completions 时放在 Authorization: Bearer 后面。", ark, "zh")
    qk = "bce-v3/ALTAK-" + rs(ALNUM, 21) + "/" + rs(HEX, 40)
    S("baidu_qianfan_api_key", "cloud",
      f"千帆 ModelBuilder 新版鉴权：\nQIANFAN_API_KEY=\"{qk}\"\n旧版的 API Key / Secret Key 已经停用。", qk, "zh")
    bsk = rs(ALNUM, 32)
    S("baidu_secret_key", "cloud",
      f"# 百度智能云 OCR\nAPP_ID = '{R.randint(10**7, 10**8)}'\nAPI_KEY = '{rs(ALNUM, 24)}'\nSECRET_KEY = '{bsk}'\nclient = AipOcr(APP_ID, API_KEY, SECRET_KEY)", bsk)

    cf = rs(B64URL, 40)
    S("cloudflare_api_token", "cloud",
      f"$ curl -s https://api.cloudflare.com/client/v4/user/tokens/verify -H \"Authorization: Bearer {cf}\"\n"
      f"{{\"result\":{{\"id\":\"{rs(HEX, 32)}\",\"status\":\"active\"}},\"success\":true,\"errors\":[],\"messages\":[{{\"code\":10000,\"message\":\"This API Token is valid and active\"}}]}}", cf)
    cf = rs(B64URL, 40)
    S("cloudflare_api_token", "cloud",
      f"# wrangler in CI\n- name: Deploy worker\n  run: npx wrangler deploy\n  env:\n    CLOUDFLARE_API_TOKEN: {cf}\n    CLOUDFLARE_ACCOUNT_ID: {rs(HEX, 32)}", cf)
    gk = rs(HEX, 37)
    S("cloudflare_global_api_key", "cloud",
      f"curl -X PURGE 'https://api.cloudflare.com/client/v4/zones/{rs(HEX, 32)}/purge_cache' \\\n  -H 'X-Auth-Email: ops@lumen-bikes.de' \\\n  -H 'X-Auth-Key: {gk}' \\\n  --data '{{\"purge_everything\":true}}'", gk)
    do = "dop_v1_" + rs(HEX, 64)
    S("digitalocean_token", "cloud",
      f"$ doctl auth init --context side-project\nPlease authenticate doctl for use with your DigitalOcean account.\nEnter your access token: {do}\nValidating token... OK", do)
    fy = rs(B64URL, 32)
    S("fastly_api_token", "cloud",
      f"$ FASTLY_API_TOKEN={fy} fastly purge --all --service-id {rs(ALNUM, 22)}\nSUCCESS: Purge all request sent", fy)
    nf = "nfp_" + rs(ALNUM, 36)
    S("netlify_token", "cloud",
      f"[build.environment]\n  NODE_VERSION = \"20\"\n# TODO move out of netlify.toml!!\n  NETLIFY_AUTH_TOKEN = \"{nf}\"", nf)
    vc = rs(ALNUM, 24)
    S("vercel_token", "cloud",
      f"+ npx vercel deploy --prod --yes --token {vc} --scope acme-web\nVercel CLI 39.1.2\n🔍  Inspect: https://vercel.com/acme-web/site/{rs(ALNUM, 9)}", vc)
    rn = "rnd_" + rs(ALNUM, 28)
    S("render_api_key", "cloud",
      f"Render 的 API key 我先放这里：{rn}，部署完我会去 Account Settings 里撤销。", rn, "zh")
    fly = "FlyV1 fm2_" + rs(B64, 180) + "," + "fo1_" + rs(B64URL, 43)
    S("flyio_token", "cloud",
      f"$ fly tokens create deploy -x 720h\n{fly}", fly)
    rw = uuid4()
    S("railway_token", "cloud",
      f"Variables (railway.app → Project → Settings → Tokens)\nRAILWAY_TOKEN={rw}\nRAILWAY_ENVIRONMENT=production", rw)
    hk = "HRKU-AA" + rs(B64URL, 58)
    S("heroku_api_key", "cloud",
      f"$ heroku authorizations:create -d 'github actions'\nCreating OAuth Authorization... done\nClient:      <none>\nID:          {uuid4()}\nDescription: github actions\nScope:       global\nToken:       {hk}\nUpdated at:  Tue Dec 01 2026", hk)
    ft = "1//0" + rs(B64URL, 99)
    S("firebase_ci_token", "cloud",
      f"✔  Success! Use this token to login on a CI server:\n\n{ft}\n\nExample: firebase deploy --token \"$FIREBASE_TOKEN\"", ft)
    mpk = uuid4()
    S("mongodb_atlas_private_key", "cloud",
      f"$ atlas config init\n? Public API Key: {rs(LO, 8)}\n? Private API Key: {mpk}\n? Default Org ID: {rs(HEX, 24)}\nYour profile is now configured.", mpk)
    ek = b64(rs(B64URL, 20) + ":" + rs(B64URL, 22))
    S("elastic_api_key", "cloud",
      f"PUT /_security/api_key 回来的 encoded 值：{ek}\n请求头写成 Authorization: ApiKey {ek}", ek, "zh")
    csec = rs(ALNUM + "+/", 64)
    S("confluent_api_secret", "cloud",
      "# client.properties (Confluent Cloud)\nbootstrap.servers=pkc-921jm.us-east-2.aws.confluent.cloud:9092\nsecurity.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n"
      f"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username='{rs(UPNUM, 16)}' password='{csec}';", csec)
    ut = "AX" + rs(ALNUM, 4) + "AAIjcDE" + rs(B64URL, 60)
    S("upstash_rest_token", "cloud",
      f"UPSTASH_REDIS_REST_URL=\"https://eu1-amazing-gnat-38211.upstash.io\"\nUPSTASH_REDIS_REST_TOKEN=\"{ut}\"", ut)
    nk = "napi_" + rs(LOWNUM, 60)
    S("neon_api_key", "cloud",
      f"curl 'https://console.neon.tech/api/v2/projects' -H 'Accept: application/json' -H \"Authorization: Bearer {nk}\"", nk)
    ps = "pscale_tkn_" + rs(B64URL, 43)
    S("planetscale_service_token", "cloud",
      f"PLANETSCALE_SERVICE_TOKEN_ID={rs(LOWNUM, 12)}\nPLANETSCALE_SERVICE_TOKEN={ps}", ps)
    pc = "pcsk_" + rs(ALNUM, 6) + "_" + rs(ALNUM, 63)
    S("pinecone_api_key", "cloud",
      f">>> from pinecone import Pinecone\n>>> pc = Pinecone(api_key=\"{pc}\")\n>>> pc.list_indexes().names()\n['docs-768', 'faq-1536']", pc)
    ibm = rs(B64URL, 44)
    S("ibm_cloud_api_key", "cloud",
      f"$ ibmcloud login --apikey {ibm} -r eu-de\nAPI endpoint: https://cloud.ibm.com\nAuthenticating...\nOK", ibm)
    scw = uuid4()
    S("scaleway_secret_key", "cloud",
      f"[profiles.default]\naccess_key = \"SCW{rs(UPNUM, 17)}\"\nsecret_key = \"{scw}\"\ndefault_region = \"fr-par\"", scw)


# =============================================================================================
# SECRETS: token
# =============================================================================================
def tokens():
    # --- LLM providers
    k = openai_key()
    S("openai_api_key", "token",
      "In [1]: import os, openai\n"
      f"In [2]: client = openai.OpenAI(api_key=\"{k}\")\n"
      "In [3]: client.models.list().data[0].id\nOut[3]: 'gpt-4o-mini-2024-07-18'", k)
    k = "sk-svcacct-" + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74)
    S("openai_api_key", "token",
      f"Ce matin j'ai régénéré la clé du compte de service : {k}. L'ancienne est révoquée.", k, "fr")
    k = anthropic_key()
    S("anthropic_api_key", "token",
      f"팀 공용 Claude API 키 공유드립니다: {k}\n사용량 대시보드에서 한도 꼭 확인해 주세요.", k, "ko")
    k = anthropic_key()
    inner = json.dumps({"provider": "anthropic", "api_key": k, "model": "claude-sonnet-4"})
    S("anthropic_api_key", "token",
      json.dumps({"tool": "write_file", "path": "config/llm.json", "content": inner}), k)
    k = rs(ALNUM, 40)
    S("cohere_api_key", "token", f"co = cohere.ClientV2(\"{k}\")\nresponse = co.embed(texts=docs, model=\"embed-v4.0\", input_type=\"search_document\")", k)
    k = rs(ALNUM, 32)
    S("mistral_api_key", "token",
      f"Voici la clé Mistral pour le POC (La Plateforme, workspace « R&D ») : {k} — à mettre dans MISTRAL_API_KEY.", k, "fr")
    k = "sk-" + rs(HEX, 32)
    S("deepseek_api_key", "token",
      f"DeepSeek 的 key 充值了 50 块：{k}\nbase_url 用 https://api.deepseek.com，模型选 deepseek-chat。", k, "zh")
    k = "sk-" + rs(ALNUM, 48)
    S("moonshot_api_key", "token",
      f"from openai import OpenAI\nclient = OpenAI(api_key=\"{k}\", base_url=\"https://api.moonshot.cn/v1\")  # Kimi", k)
    k = rs(HEX, 32) + "." + rs(ALNUM, 16)
    S("zhipu_api_key", "token", f"智谱 BigModel 开放平台的 API Key：{k}，用 glm-4-plus 跑评测。", k, "zh")
    k = "sk-" + rs(HEX, 32)
    S("dashscope_api_key", "token",
      f"$ export DASHSCOPE_API_KEY={k}\n$ python qwen_demo.py\n通义千问：你好！有什么可以帮你？", k, "zh")
    k = "gsk_" + rs(ALNUM, 52)
    S("groq_api_key", "token", f"GROQ_API_KEY={k} uv run bench.py --model llama-3.3-70b-versatile", k)
    k = "hf_" + rs(ALNUM, 34)
    S("huggingface_token", "token",
      f"$ huggingface-cli login --token {k} --add-to-git-credential\nToken is valid (permission: write).\nYour token has been saved to /home/jovyan/.cache/huggingface/token", k)
    k = "sk-or-v1-" + rs(HEX, 64)
    S("openrouter_api_key", "token", f"OpenRouter anahtarım şu: {k} — kredim bitmek üzere, dikkatli kullan.", k, "tr")
    k = "xai-" + rs(ALNUM, 80)
    S("xai_api_key", "token", f"curl https://api.x.ai/v1/chat/completions -H \"Authorization: Bearer {k}\" -d @req.json", k)
    k = "pplx-" + rs(ALNUM, 48)
    S("perplexity_api_key", "token", f"| provider | key |\n|---|---|\n| perplexity | `{k}` |\n| tavily | (see vault) |", k)
    k = rs(HEX, 64)
    S("together_api_key", "token", f"TOGETHER_API_KEY='{k}'  # together.ai, shared team account", k)
    k = "r8_" + rs(ALNUM, 37)
    S("replicate_api_token", "token", f"Token Replicate buat render gambar: {k}. Jangan dipakai buat proyek lain ya.", k, "id")

    # --- source hosting, CI, package registries
    k = ghp()
    S("github_pat", "token",
      f"$ gh auth login --with-token <<< '{k}'\n$ gh auth status\ngithub.com\n  ✓ Logged in to github.com account deploy-bot (GH_TOKEN)\n  - Token: ghp_************************************", k)
    k = "github_pat_11" + rs(UPNUM, 20) + "_" + rs(ALNUM, 59)
    S("github_fine_grained_pat", "token",
      f"Fine-grained token für das Release-Repo (nur contents:write, läuft am 31.01. ab): {k}", k, "de")
    k = "gho_" + rs(ALNUM, 36)
    S("github_oauth_token", "token",
      f"$ cat ~/.config/gh/hosts.yml\ngithub.com:\n    users:\n        mlin:\n            oauth_token: {k}\n    git_protocol: https\n    oauth_token: {k}\n    user: mlin", k)
    k = "ghs_" + rs(ALNUM, 36)
    S("github_app_token", "token",
      "2026-12-01T10:22:41.1234567Z ##[group]Run actions/create-github-app-token@v1\n"
      f"2026-12-01T10:22:42.9981230Z Token created: {k}\n2026-12-01T10:22:42.9990021Z ##[endgroup]", k)
    k = "glpat-" + rs(B64URL, 20)
    S("gitlab_pat", "token",
      f"Kannst du mal kurz draufschauen? `curl --header \"PRIVATE-TOKEN: {k}\" https://gitlab.intern.example-gmbh.de/api/v4/projects` gibt 403.", k, "de")
    k = "glpat-" + rs(B64URL, 20)
    S("gitlab_pat", "token",
      f"[[runners]]\n  name = \"docker-amd64\"\n  url = \"https://gitlab.com/\"\n  token = \"glrt-{rs(B64URL, 20)}\"\n  executor = \"docker\"\n  [runners.custom_build_dir]\n  [runners.cache]\n    # used by cleanup job\n    Token = \"{k}\"", k)
    k = "glptt-" + rs(HEX, 40)
    S("gitlab_trigger_token", "token",
      f"curl -X POST --fail -F token={k} -F ref=main https://gitlab.com/api/v4/projects/48151623/trigger/pipeline", k)
    k = "gldt-" + rs(B64URL, 20)
    S("gitlab_deploy_token", "token",
      f"kubectl create secret docker-registry gitlab-pull --docker-server=registry.gitlab.com --docker-username=gitlab+deploy-token-118 --docker-password={k}", k)
    k = "CCIPAT_" + rs(ALNUM, 22) + "_" + rs(HEX, 40)
    S("circleci_token", "token",
      f"$ circleci setup\n✔ CircleCI API Token: {k}\n✔ CircleCI Host: https://circleci.com\nSetup complete.", k)
    k = rs(B64URL, 22)
    S("travis_token", "token", f"$ travis login --pro --github-token {ghp()}\n$ travis token --pro\nYour access token is {k}", k)
    k = "bkua_" + rs(HEX, 40)
    S("buildkite_api_token", "token", f"BUILDKITE_API_TOKEN={k} bk build create --pipeline mobile/ios --branch release/7.2", k)
    k = rs(HEX, 50)
    S("buildkite_agent_token", "token",
      f"# /etc/buildkite-agent/buildkite-agent.cfg\ntoken=\"{k}\"\nname=\"%hostname-%spawn\"\ntags=\"queue=gpu,os=linux\"\nbuild-path=\"/var/lib/buildkite-agent/builds\"", k)
    k = uuid4()
    S("snyk_token", "token", f"$ snyk auth {k}\nYour account has been authenticated. Snyk is now ready to be used.", k)
    k = "squ_" + rs(HEX, 40)
    S("sonarqube_token", "token",
      f"[INFO] Scanning for projects...\n[INFO] Executing: mvn -B verify sonar:sonar -Dsonar.host.url=https://sonar.corp.local -Dsonar.token={k}\n[INFO] ANALYSIS SUCCESSFUL", k)
    k = "sqp_" + rs(HEX, 40)
    S("sonarqube_token", "token",
      f"Para el análisis del proyecto usa este token de SonarQube: {k} (es de proyecto, no global).", k, "es")
    k = "AKCp" + rs(ALNUM, 69)
    S("jfrog_api_key", "token",
      "<settings>\n  <servers>\n    <server>\n      <id>artifactory-releases</id>\n      <username>ci-publisher</username>\n"
      f"      <password>{k}</password>\n    </server>\n  </servers>\n</settings>", k)
    k = "cmVmdGtuOjAxOjE3" + rs(ALNUM, 48)
    S("jfrog_reference_token", "token",
      f"$ jf config add prod --url=https://acme.jfrog.io --access-token={k} --interactive=false\n$ jf rt ping\nOK", k)
    k = "npm_" + rs(ALNUM, 36)
    S("npm_token", "token",
      f"$ cat ~/.npmrc\n@acme:registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={k}\nfund=false", k)
    k = "pypi-AgEIcHlwaS5vcmcCJ" + rs(B64URL, 150)
    S("pypi_token", "token",
      f"# ~/.pypirc\n[distutils]\nindex-servers =\n    pypi\n    testpypi\n\n[pypi]\nusername = __token__\npassword = {k}", k)
    k = "cio" + rs(ALNUM, 32)
    S("cargo_registry_token", "token",
      f"$ cat ~/.cargo/credentials.toml\n[registry]\ntoken = \"{k}\"\n\n[registries.internal]\ntoken = \"Bearer {rs(ALNUM, 40)}\"", k)
    k = "dckr_pat_" + rs(B64URL, 27)
    S("dockerhub_pat", "token",
      f"$ echo {k} | docker login -u acmebuild --password-stdin\nWARNING! Your password will be stored unencrypted in /root/.docker/config.json.\nLogin Succeeded", k)
    k = "rubygems_" + rs(HEX, 48)
    S("rubygems_api_key", "token", f"---\n:rubygems_api_key: {k}\n", k)
    k = "oy2" + rs(LOWNUM, 43)
    S("nuget_api_key", "token", f"dotnet nuget push bin/Release/Acme.Core.3.4.0.nupkg --api-key {k} --source https://api.nuget.org/v3/index.json", k)

    # --- SaaS APIs
    k = "00" + rs(B64URL, 40)
    S("okta_api_token", "token",
      f"GET /api/v1/users?limit=25 HTTP/1.1\nHost: acme.okta.com\nAccept: application/json\nAuthorization: SSWS {k}", k)
    k = rs(B64URL, 64)
    S("auth0_client_secret", "token",
      f"AUTH0_DOMAIN=acme-prod.eu.auth0.com\nAUTH0_CLIENT_ID={rs(ALNUM, 32)}\nAUTH0_CLIENT_SECRET={k}\nAUTH0_AUDIENCE=https://api.acme.io", k)
    k = rs(HEX, 32)
    S("algolia_admin_key", "token",
      f"const client = algoliasearch('{rs(UPNUM, 10)}', '{k}'); // admin key — only in the indexing job!", k)
    k = rs(LOWNUM, 30)
    S("twitch_client_secret", "token",
      f"$ twitch configure\nClient ID: {rs(LOWNUM, 30)}\nClient Secret: {k}\nUpdated configuration.", k)
    k = rs(ALNUM, 32)
    S("zoom_client_secret", "token",
      f"Zoomアプリ（Server-to-Server OAuth）のClient Secretは {k} です。Account IDは別途送ります。", k, "ja")
    k = "sl.u." + rs(B64URL, 140)
    S("dropbox_access_token", "token",
      f"dbx = dropbox.Dropbox(\"{k}\")\ndbx.files_upload(data, '/backups/db-2026-12-01.sql.gz')", k)
    k = rs(ALNUM, 32)
    S("box_developer_token", "token", f"curl -i -X GET \"https://api.box.com/2.0/folders/0\" -H \"authorization: Bearer {k}\"", k)
    k = f"2/{R.randint(10**15, 10**16)}/{R.randint(10**15, 10**16)}:{rs(HEX, 32)}"
    S("asana_pat", "token", f"ASANA_PAT={k}\nASANA_WORKSPACE={R.randint(10**15, 10**16)}", k)
    k = f"pk_{R.randint(10**7, 10**8)}_{rs(UPNUM, 32)}"
    S("clickup_api_token", "token", f"Token ClickUp do automatyzacji zadań: {k} — wklejam tylko tutaj, potem go zmienię.", k, "pl")
    k = "pat" + rs(ALNUM, 14) + "." + rs(HEX, 64)
    S("airtable_pat", "token", f"base = Api(\"{k}\").table(\"appX9k2LmN0pQrStU\", \"Leads\")", k)
    k = "CFPAT-" + rs(B64URL, 43)
    S("contentful_cma_token", "token",
      f"$ contentful login --management-token {k}\nGreat! You've successfully logged in!", k)
    k = "sk" + rs(ALNUM, 180)
    S("sanity_token", "token", f"SANITY_API_WRITE_TOKEN=\"{k}\"\nSANITY_PROJECT_ID=\"{rs(LOWNUM, 8)}\"", k)
    k = "ntn_" + rs(ALNUM, 46)
    S("notion_token", "token",
      f"Integração do Notion criada. Token interno: {k}. Compartilhe a página \"Roadmap\" com a integração.", k, "pt")
    k = "lin_api_" + rs(ALNUM, 40)
    S("linear_api_key", "token", f"mutation via curl:\ncurl -X POST https://api.linear.app/graphql -H 'Authorization: {k}' -H 'Content-Type: application/json' --data '{{\"query\":\"{{ viewer {{ id }} }}\"}}'", k)
    k = "ATATT3xFfGF0" + rs(B64URL, 180) + "=" + rs(HEXU, 8)
    S("atlassian_api_token", "token",
      f"jira:\n  url: https://acme.atlassian.net\n  email: release-bot@acme.io\n  token: {k}", k)
    k = "figd_" + rs(B64URL, 40)
    S("figma_pat", "token", f"X-Figma-Token: {k}", k)
    k = "PMAK-" + rs(HEX, 24) + "-" + rs(HEX, 34)
    S("postman_api_key", "token", f"$ postman login --with-api-key {k}\nLogged in successfully.", k)
    k = slack("xoxb")
    S("slack_bot_token", "token",
      f"Slackボットのトークンを再発行しました：{k}\n古いトークンは無効です。", k, "ja")
    k = f"xapp-1-A{rs(UPNUM, 10)}-{R.randint(10**12, 10**13)}-{rs(HEX, 64)}"
    S("slack_app_token", "token", f"SLACK_APP_TOKEN={k}  # socket mode\nSLACK_SIGNING_SECRET={rs(HEX, 32)}", k)
    k = b64(str(R.randint(10**17, 10**18))).rstrip("=") + "." + rs(B64URL, 6) + "." + rs(B64URL, 38)
    S("discord_bot_token", "token", f"bot.run('{k}')  # TODO env var", k)
    k = rs(HEX, 32)
    S("twilio_auth_token", "token",
      f"from twilio.rest import Client\naccount_sid = 'AC{rs(HEX, 32)}'\nauth_token = '{k}'\nclient = Client(account_sid, auth_token)", k)
    k = "SG." + rs(B64URL, 22) + "." + rs(B64URL, 43)
    S("sendgrid_api_key", "token", f"Подставь ключ SendGrid в настройки рассылки: {k}. Домен уже верифицирован.", k, "ru")
    k = "key-" + rs(HEX, 32)
    S("mailgun_api_key", "token", f"curl -s --user 'api:{k}' https://api.eu.mailgun.net/v3/mg.acme.eu/messages -F from='Acme <noreply@mg.acme.eu>' -F to=ops@acme.eu -F subject=test -F text=hi", k)
    k = uuid4()
    S("postmark_server_token", "token", f"X-Postmark-Server-Token: {k}", k)
    k = rs(HEX, 32) + "-us" + str(R.randint(1, 21))
    S("mailchimp_api_key", "token", f"Chiave API di Mailchimp per la newsletter: {k}", k, "it")
    k = rs(HEX, 40)
    S("datadog_app_key", "token", f"export DD_API_KEY={rs(HEX, 32)}\nexport DD_APP_KEY={k}\nexport DD_SITE=datadoghq.eu", k)
    k = "NRAK-" + rs(UPNUM, 27)
    S("newrelic_user_key", "token", f"NEW_RELIC_API_KEY={k} newrelic entity search --name checkout-api", k)
    k = "sntrys_" + b64u(json.dumps({"iat": 1764500000.0, "url": "https://sentry.io", "region_url": "https://de.sentry.io", "org": "acme"})) + "_" + rs(B64URL, 43)
    S("sentry_auth_token", "token", f"# .sentryclirc\n[auth]\ntoken={k}\n[defaults]\norg=acme\nproject=web", k)
    k = "glsa_" + rs(ALNUM, 32) + "_" + rs(HEX, 8)
    S("grafana_service_account_token", "token", f"grafana:\n  url: https://grafana.ops.local\n  auth: \"{k}\"", k)
    k = "hvs." + rs(B64URL, 90)
    S("vault_token", "token",
      f"$ vault login -method=userpass username=deploy\nPassword (will be hidden):\nSuccess! You are now authenticated.\n\nKey                    Value\n---                    -----\ntoken                  {k}\ntoken_accessor         {rs(ALNUM, 24)}\ntoken_duration         768h", k)
    k = rs(ALNUM, 14) + ".atlasv1." + rs(ALNUM, 67)
    S("terraform_cloud_token", "token", f"$ cat ~/.terraform.d/credentials.tfrc.json\n{{\n  \"credentials\": {{\n    \"app.terraform.io\": {{\n      \"token\": \"{k}\"\n    }}\n  }}\n}}", k)
    k = "dp.st.prd." + rs(ALNUM, 40)
    S("doppler_token", "token", f"docker run --rm -e DOPPLER_TOKEN=\"{k}\" acme/api:1.9.0 doppler run -- node server.js", k)
    k = "pul-" + rs(HEX, 40)
    S("pulumi_access_token", "token", f"PULUMI_ACCESS_TOKEN={k} pulumi up --stack acme/prod --yes", k)
    k = "ops_eyJ" + rs(B64URL, 400)
    S("onepassword_service_token", "token", f"export OP_SERVICE_ACCOUNT_TOKEN={k}\nop read \"op://Prod/db/password\"", k)
    k = "shpat_" + rs(HEX, 32)
    S("shopify_access_token", "token", f"Il token dell'app privata Shopify è {k}, negozio acme-moda.myshopify.com.", k, "it")
    k = "pat-eu1-" + uuid4()
    S("hubspot_private_app_token", "token", f"hubspot:\n  portalId: {R.randint(10**7, 10**8)}\n  accessToken: {k}", k)
    k = "sdk-" + uuid4()
    S("launchdarkly_sdk_key", "token", f"ldclient.set_config(Config(\"{k}\"))  # server-side SDK key, prod env", k)
    k = "sk.eyJ1IjoiYWNtZS1tYXBzIiwiYSI6I" + rs(B64URL, 40) + "." + rs(B64URL, 22)
    S("mapbox_secret_token", "token", f"MAPBOX_DOWNLOADS_TOKEN={k}  # needed by the iOS SDK download step", k)

    # --- payments
    k = "rk_live_" + rs(ALNUM, 99)
    S("stripe_restricted_key", "token",
      f"Restricted key for the reporting job (read-only on charges and payouts): {k}", k)
    k = "sk_live_" + rs(ALNUM, 99)
    S("stripe_secret_key", "token", f"Chave secreta do Stripe em produção: {k}. Não commitar!", k, "pt")
    k = "whsec_" + rs(ALNUM, 32)
    S("stripe_webhook_secret", "token",
      f"$ stripe listen --forward-to localhost:4242/webhook\n> Ready! You are using Stripe API Version [2025-09-30]. Your webhook signing secret is {k} (^C to quit)", k)
    k = f"access_token$production${rs(LOWNUM, 16)}${rs(HEX, 32)}"
    S("braintree_access_token", "token", f"gateway = braintree.BraintreeGateway(access_token=\"{k}\")", k)
    k = rs(B64URL, 80)
    S("paypal_client_secret", "token",
      f"curl -v https://api-m.paypal.com/v1/oauth2/token -u \"{rs(B64URL, 80)}:{k}\" -d \"grant_type=client_credentials\"", k)
    k = "EAAA" + rs(B64URL, 60)
    S("square_access_token", "token", f"SQUARE_ENVIRONMENT=production\nSQUARE_ACCESS_TOKEN={k}", k)
    k = "AQE" + rs(B64, 60) + "=-" + rs(B64, 44) + "=-" + rs(B64URL, 10)
    S("adyen_api_key", "token", f"X-API-Key: {k}\nContent-Type: application/json\n\n{{\"merchantAccount\":\"AcmeECOM\",\"amount\":{{\"currency\":\"EUR\",\"value\":1990}}}}", k)
    k = rs(HEX, 30)
    S("plaid_secret", "token", f"PLAID_CLIENT_ID={rs(HEX, 24)}\nPLAID_SECRET={k}\nPLAID_ENV=production", k)
    k = rs(ALNUM, 32)
    S("coinbase_api_secret", "token", f"Coinbase Exchange API — key: {rs(HEX, 32)}, secret: {k}, passphrase: {rs(LOWNUM, 11)}", k)
    k = rs(ALNUM, 32)
    S("wechat_pay_api_v3_key", "token",
      f"微信支付商户平台 → API安全 → 设置 APIv3 密钥：{k}\n商户号 {R.randint(10**9, 10**10)}，证书序列号另存。", k, "zh")
    k = rs(ALNUM, 32)
    S("wechat_pay_api_key", "token",
      f"<xml>\n  <appid>wx{rs(HEX, 16)}</appid>\n  <mch_id>{R.randint(10**9, 10**10)}</mch_id>\n</xml>\n# v2 签名用的 key={k}，拼在 stringA 后面再 MD5", k, "zh")
    k = "rzp_live_" + rs(ALNUM, 14)
    ks = rs(ALNUM, 24)
    S("razorpay_key_secret", "token", f"RAZORPAY_KEY_ID={k}\nRAZORPAY_KEY_SECRET={ks}", ks)

    # --- frameworks, session, OTP, crypto
    sat = jwt({"aud": ["https://kubernetes.default.svc.cluster.local"], "exp": 1764664800, "iat": 1764661200,
               "iss": "https://kubernetes.default.svc.cluster.local",
               "kubernetes.io": {"namespace": "ci", "serviceaccount": {"name": "deployer", "uid": uuid4()}},
               "nbf": 1764661200, "sub": "system:serviceaccount:ci:deployer"}, kid=rs(B64URL, 43))
    S("kubernetes_sa_token", "token", f"$ kubectl -n ci create token deployer --duration=1h\n{sat}", sat)
    sat = jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": "monitoring",
               "kubernetes.io/serviceaccount/secret.name": "prometheus-token-x7k2q",
               "kubernetes.io/serviceaccount/service-account.name": "prometheus",
               "sub": "system:serviceaccount:monitoring:prometheus"}, kid=rs(B64URL, 43))
    enc = b64(sat)
    S("kubernetes_sa_token", "token",
      "$ kubectl -n monitoring get secret prometheus-token-x7k2q -o yaml\napiVersion: v1\ndata:\n"
      f"  ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM1ekNDQWMrZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmwK\n"
      f"  namespace: bW9uaXRvcmluZw==\n  token: {enc}\nkind: Secret\nmetadata:\n  annotations:\n    kubernetes.io/service-account.name: prometheus\ntype: kubernetes.io/service-account-token", enc)
    codes = [f"{rs(HEX, 5)}-{rs(HEX, 5)}" for _ in range(8)]
    S("backup_codes", "token",
      "GitHub recovery codes — keep them somewhere safe\n\n" + "\n".join(codes[i] + "    " + codes[i + 1] for i in range(0, 8, 2)), codes[2])
    codes = [rs(DG, 8) for _ in range(5)]
    S("backup_codes", "token", "我的谷歌账号备用验证码（每个只能用一次）：" + "、".join(codes), codes[0], "zh")
    seed = rs(B32, 32)
    S("totp_seed", "token",
      f"otpauth://totp/Acme%20VPN:lena.hoffmann?secret={seed}&issuer=Acme%20VPN&algorithm=SHA1&digits=6&period=30", seed)
    seed = " ".join(rs(B32, 4).lower() for _ in range(8))
    S("totp_seed", "token", f"二段階認証の設定キー（QRコードが読めない場合）：{seed}", seed, "ja")
    k = "AGE-SECRET-KEY-1" + rs(BECH32, 58).upper()
    S("age_secret_key", "token", f"$ cat ~/.config/sops/age/keys.txt\n# created: 2026-11-30T18:02:11+01:00\n# public key: age1{rs(BECH32, 58)}\n{k}", k)
    k = "0x" + rs(HEX, 64)
    S("ethereum_private_key", "token", f"Ví MetaMask test của team: private key {k} (chỉ có ETH Sepolia, nhưng vẫn đừng lộ ra).", k, "vi")
    words = ["abandon", "maple", "orbit", "cushion", "velvet", "harbor", "giant", "neutral", "sketch", "random",
             "tumble", "ladder", "fossil", "glove", "patrol", "ripple", "summer", "vacant", "wisdom", "zebra"]
    m = " ".join(R.sample(words, 12))
    S("bip39_mnemonic", "token", f"Cüzdan kurtarma kelimeleri (12 kelime): {m}", m, "tr")
    k = b64(rbytes(48))
    S("jwt_signing_secret", "token", f"auth:\n  jwt:\n    algorithm: HS512\n    secret: \"{k}\"\n    ttl: 15m", k)
    k = rs(LO + DG + "!@#%^&*(-_=+)", 50)
    S("django_secret_key", "token", f"# settings/prod.py\nDEBUG = False\nSECRET_KEY = '{k}'\nALLOWED_HOSTS = ['api.acme.io']", k)
    k = rs(HEX, 32)
    S("rails_master_key", "token", f"$ cat config/master.key\n{k}\n$ EDITOR=vim bin/rails credentials:edit", k)
    k = "base64:" + b64(rbytes(32))
    S("laravel_app_key", "token", f"APP_NAME=Tienda\nAPP_ENV=production\nAPP_KEY={k}\nAPP_DEBUG=false", k)
    k = b64(rbytes(32))
    S("nextauth_secret", "token", f"$ openssl rand -base64 32\n{k}\n$ vercel env add NEXTAUTH_SECRET production", k)
    k = rs(HEX, 64)
    S("flask_secret_key", "token", f"app = Flask(__name__)\napp.config['SECRET_KEY'] = '{k}'\napp.config['SESSION_COOKIE_SECURE'] = True", k)
    k = rs(ALNUM, 32)
    S("oidc_client_secret", "token",
      f"spring:\n  security:\n    oauth2:\n      client:\n        registration:\n          keycloak:\n            client-id: orders-api\n            client-secret: {k}\n            scope: openid,profile", k)
    k = rs(B64URL, 40)
    S("oidc_client_secret", "token", f"Le secret client OIDC de l'application « Portail RH » dans Azure AD B2C : {k}", k, "fr")


# =============================================================================================
# SECRETS: password
# =============================================================================================
def passwords():
    p = pw()
    S("pypirc_password", "password",
      f"[distutils]\nindex-servers = internal\n\n[internal]\nrepository = https://nexus.acme.local/repository/pypi-internal/\nusername = release\npassword = {p}", p)
    p = pw()
    enc = b64(p)
    S("npmrc_password", "password",
      f"registry=https://npm.acme.local/repository/npm-group/\n//npm.acme.local/repository/npm-group/:username=ci\n//npm.acme.local/repository/npm-group/:_password={enc}\n//npm.acme.local/repository/npm-group/:email=ci@acme.local\nalways-auth=true", enc)
    p = pw()
    S("maven_settings_password", "password",
      "<server>\n  <id>nexus-snapshots</id>\n  <username>deployment</username>\n"
      f"  <password>{p}</password>\n  <configuration><httpHeaders/></configuration>\n</server>", p)
    p = pw()
    S("gradle_properties_password", "password",
      f"# ~/.gradle/gradle.properties\norg.gradle.jvmargs=-Xmx4g\nsigning.keyId=4F2A91C3\nsigning.password={p}\nsigning.secretKeyRingFile=/home/ci/.gnupg/secring.gpg\nossrhUsername=acme-release", p)
    p = pw(specials="!*_-")
    S("condarc_proxy_password", "password",
      f"channels:\n  - conda-forge\n  - defaults\nproxy_servers:\n  http: http://jdoe:{p}@proxy.corp.example-bank.com:8080\n  https: http://jdoe:{p}@proxy.corp.example-bank.com:8080\nssl_verify: true", p)
    a = b64("robot$ci+pusher:" + pw())
    S("docker_config_auth", "password",
      '$ cat ~/.docker/config.json\n{\n\t"auths": {\n\t\t"harbor.acme.local": {\n'
      f'\t\t\t"auth": "{a}"\n\t\t}}\n\t}},\n\t"credsStore": ""\n}}', a)
    ob = rs(B64URL, 46)
    S("rclone_obscured_password", "password",
      f"$ cat ~/.config/rclone/rclone.conf\n[nas]\ntype = sftp\nhost = 192.168.10.20\nuser = backup\npass = {ob}\nshell_type = unix\n\n[b2]\ntype = b2\naccount = {rs(HEX, 12)}\nkey = K00{rs(ALNUM, 28)}", ob)
    p = pw(specials="!#%^*_-+=.?")
    S("wp_config_db_password", "password",
      "<?php\n/** The name of the database for WordPress */\ndefine( 'DB_NAME', 'wp_blog' );\ndefine( 'DB_USER', 'wp_blog' );\n"
      f"define( 'DB_PASSWORD', '{p}' );\ndefine( 'DB_HOST', 'localhost' );\ndefine( 'DB_CHARSET', 'utf8mb4' );", p)
    salt = rs(ALNUM + "!#%^*_-+=.?,;:[]()<>|~", 64)
    S("wp_config_salt", "password",
      f"define( 'AUTH_KEY',         '{salt}' );\ndefine( 'SECURE_AUTH_KEY',  '{rs(ALNUM + '!#%^*_-+=.?,;:[]()<>|~', 64)}' );", salt)
    p = pw()
    S("ldap_bind_password", "password",
      f"$ ldapsearch -x -H ldaps://ldap.corp.local -D 'cn=svc-jenkins,ou=services,dc=corp,dc=local' -w '{p}' -b 'ou=people,dc=corp,dc=local' '(uid=mchen)' mail\n# extended LDIF\n# numResponses: 2", p)
    p = pw()
    S("ldap_bind_password", "password",
      f"[domain/corp.local]\nid_provider = ldap\nldap_uri = ldaps://dc1.corp.local\nldap_default_bind_dn = CN=svc-sssd,OU=Service,DC=corp,DC=local\nldap_default_authtok_type = password\nldap_default_authtok = {p}", p)
    p = pw()
    S("pkcs12_password", "password",
      f"$ openssl pkcs12 -export -in tls.crt -inkey tls.key -out keystore.p12 -name api -passout pass:{p}\n$ ls -l keystore.p12\n-rw------- 1 ci ci 2731 Dec  2 09:11 keystore.p12", p)
    p = pw()
    S("pkcs12_password", "password",
      f"keytool -importkeystore -srckeystore keystore.p12 -srcstoretype PKCS12 -srcstorepass {p} -destkeystore app.jks -deststorepass {p} -noprompt", p)
    p = pw_words()
    S("gpg_passphrase", "password",
      f"$ gpg --batch --pinentry-mode loopback --passphrase '{p}' --detach-sign --armor dist/acme-cli-2.3.0.tar.gz", p)
    p = pw()
    S("compose_env_password", "password",
      f"services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: \"{p}\"\n      POSTGRES_DB: shop\n    ports: [\"5432:5432\"]", p)
    p = pw()
    S("k8s_secret_stringdata", "password",
      f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: grafana-admin\n  namespace: observability\ntype: Opaque\nstringData:\n  admin-user: admin\n  admin-password: {p}", p)
    p = pw()
    S("helm_set_password", "password",
      f"helm upgrade --install keycloak bitnami/keycloak -n auth --set auth.adminUser=admin --set auth.adminPassword='{p}' --set postgresql.enabled=true", p)
    p = pw()
    S("tfvars_password", "password",
      f"# prod.auto.tfvars\nregion         = \"eu-central-1\"\ninstance_class = \"db.r6g.large\"\ndb_username    = \"orders\"\ndb_password    = \"{p}\"", p)
    p = pw()
    S("ansible_become_password", "password",
      f"[webservers]\nweb01.acme.local ansible_user=deploy ansible_become_pass='{p}'\nweb02.acme.local ansible_user=deploy", p)
    p = pw()
    S("netrc_password", "password", f"machine api.heroku.com\n  login ops@acme.io\n  password {p}\nmachine git.acme.local login ci password {pw()}", p)
    p = pw(specials="!@#%^*_-+=.?")
    S("pgpass_password", "password", f"$ cat ~/.pgpass\n# hostname:port:database:username:password\ndb-replica.internal:5432:*:readonly:{p}", p)
    p = pw()
    S("my_cnf_password", "password", f"[client]\nuser=backup\npassword=\"{p}\"\nhost=127.0.0.1\n\n[mysqldump]\nsingle-transaction", p)
    p = pw()
    S("redis_requirepass", "password", f"# redis.conf\nbind 0.0.0.0\nprotected-mode yes\nport 6379\nrequirepass {p}\nmaxmemory 2gb", p)
    p = pw()
    S("spring_datasource_password", "password",
      f"spring:\n  datasource:\n    url: jdbc:postgresql://pg-main:5432/billing\n    username: billing_app\n    password: {p}\n  jpa:\n    hibernate:\n      ddl-auto: validate", p)
    p = pw()
    S("htpasswd_password", "password", f"$ htpasswd -b -c /etc/nginx/.htpasswd grafana '{p}'\nAdding password for user grafana", p)
    p = pw(specials="!#^*_-+=.?")
    S("smbclient_password", "password", f"$ smbclient //fs01/finanzen -U 'CORP\\buchhaltung%{p}' -c 'ls'\n  Rechnungen_2026                D        0  Mon Nov 30 10:00:12 2026", p)
    p = pw()
    S("sqlcmd_password", "password", f"PS C:\\> sqlcmd -S tcp:sql-prod.acme.local,1433 -U sa -P \"{p}\" -Q \"SELECT @@VERSION\"", p)
    p = pw(specials="!#%^*_-+=.?")
    S("mysql_cli_password", "password", f"root@db1:~# mysql -u root -p'{p}' -e 'SHOW SLAVE STATUS\\G' | grep Seconds_Behind\n        Seconds_Behind_Master: 0", p)
    p = pw()
    S("pgpassword_env", "password", f"$ PGPASSWORD='{p}' pg_dump -h 10.0.3.15 -U postgres -Fc shop > shop-2026-12-01.dump", p)
    p = pw()
    S("sshpass_password", "password", f"for h in $(cat hosts.txt); do sshpass -p '{p}' ssh -o StrictHostKeyChecking=no admin@$h uptime; done", p)
    p = pw()
    S("sudo_stdin_password", "password", f"echo '{p}' | sudo -S systemctl restart nginx\n[sudo] password for deploy:", p)
    p = pw()
    S("cloud_cli_password", "password",
      f"az vm create -g rg-lab -n vm-win01 --image Win2022Datacenter --admin-username azureuser --admin-password '{p}' --size Standard_D2s_v5", p)
    p = pw()
    S("cloud_cli_password", "password", f"gcloud sql users set-password postgres --instance=pg-analytics --password='{p}'", p)
    p = pw()
    S("cloud_cli_password", "password",
      f"aws rds create-db-instance --db-instance-identifier shop-prod --engine mysql --master-username admin --master-user-password '{p}' --allocated-storage 100", p)
    p = pw()
    S("expect_script_password", "password",
      f"#!/usr/bin/expect -f\nspawn ssh root@10.20.0.5\nexpect \"password:\"\nsend \"{p}\\r\"\nexpect \"# \"\nsend \"reboot\\r\"", p)
    p = pw()
    insp = [{"Id": rs(HEX, 64), "Config": {"Hostname": "a3f9", "Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin", f"MYSQL_ROOT_PASSWORD={p}", "MYSQL_DATABASE=wiki", "GOSU_VERSION=1.17"], "Image": "mysql:8.4"}}]
    S("docker_inspect_env", "password", "$ docker inspect wiki-db --format '{{json .}}' | jq '[{Id, Config}]'\n" + json.dumps(insp, indent=2), p)
    p = pw()
    S("ci_log_unmasked", "password",
      "Running with gitlab-runner 17.5.2 (on docker-amd64 t3_xYz12)\n$ echo \"deploying with $DEPLOY_USER\"\ndeploying with svc-deploy\n"
      f"$ ./deploy.sh --user \"$DEPLOY_USER\" --password \"$DEPLOY_PASSWORD\"\n+ curl -fsS -u svc-deploy:{p} https://nexus.acme.local/service/rest/v1/components\nJob succeeded", p)
    p = pw()
    S("ci_log_unmasked", "password",
      "2026-12-01T07:41:10.0021Z ##[group]Run ./scripts/smoke.sh\n2026-12-01T07:41:10.0023Z env:\n2026-12-01T07:41:10.0023Z   ADMIN_USER: ***\n"
      f"2026-12-01T07:41:10.0024Z   ADMIN_PASS_FALLBACK: {p}\n2026-12-01T07:41:10.0025Z ##[endgroup]", p)
    p = pw(specials="!#%^*_-+=.?")
    inner = json.dumps({"db": {"user": "etl", "password": p, "host": "10.1.2.3"}})
    S("json_in_json_password", "password", json.dumps({"level": "debug", "msg": "loaded config", "config": inner}), p)
    p1, p2 = pw(14), pw(10)
    S("split_value_password", "password",
      f"ADMIN_PASSWORD = (\n    \"{p1}\"\n    \"{p2}\"\n)  # long on purpose, joined at import", p1)
    p = pw(specials="")
    raw = p[:5] + "!" + p[5:] + "&"
    enc = urllib.parse.quote(raw, safe="")
    S("urlencoded_form_password", "password",
      f"POST /login HTTP/1.1\nHost: intranet.acme.local\nContent-Type: application/x-www-form-urlencoded\nContent-Length: 58\n\nusername=k.nakamura&password={enc}&remember=on", enc)
    p = pw(specials="")
    q = p[:6] + "\\$" + p[6:]
    S("backslash_escaped_password", "password", f"$ export SMTP_PASS=\"{q}\"\n$ python send_report.py --smtp smtp.acme.local:587", q)
    p = pw()
    S("markdown_table_password", "password",
      "## Test environments\n\n| env | host | user | password |\n|-----|------|------|----------|\n"
      f"| staging | stg-db.acme.local | app | {p} |\n| qa | qa-db.acme.local | app | (ask Ops) |", p)
    p = pw()
    S("yaml_block_scalar_password", "password",
      f"smtp:\n  host: mail.acme.local\n  user: alerts\n  password: |\n    {p}\n  starttls: true", p)
    p = pw()
    S("jupyter_output_password", "password",
      "In [7]: cfg = load_config('prod.yaml'); cfg['warehouse']\n"
      f"Out[7]: {{'account': 'acme-eu', 'user': 'ANALYST_SVC', 'password': '{p}', 'role': 'REPORTING', 'warehouse': 'XS_WH'}}", p)
    p = pw()
    S("traceback_locals_password", "password",
      "Traceback (most recent call last):\n  File \"/app/sync.py\", line 88, in connect\n    conn = ftplib.FTP_TLS(host, user, passwd, timeout=10)\n"
      f"    host = 'ftp.partner-logistics.de'\n    user = 'acme_upload'\n    passwd = '{p}'\nTimeoutError: [Errno 110] Connection timed out", p)
    p = pw()
    S("java_keystore_property", "password",
      f"JAVA_TOOL_OPTIONS=-Djavax.net.ssl.keyStore=/etc/ssl/app.p12 -Djavax.net.ssl.keyStorePassword={p} -Djavax.net.ssl.keyStoreType=PKCS12", p)
    p = pw()
    S("windows_net_user", "password", f"C:\\> net user svc_backup {p} /add /passwordchg:no\nThe command completed successfully.", p)
    p = pw()
    S("powershell_securestring", "password",
      f"$secure = ConvertTo-SecureString \"{p}\" -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential('CORP\\svc_sql', $secure)", p)
    p = pw()
    S("vault_kv_put", "password", f"$ vault kv put secret/payments/db username=pay_rw password='{p}'\n======= Secret Path =======\nsecret/data/payments/db", p)
    p = pw()
    S("chat_password", "password", f"hey, here's the staging admin login: admin / {p} — rotate it after the demo please", p)
    p = pw()
    S("chat_password", "password", f"> what's the wifi for the guest portal admin page?\nit's `portal-admin` with password `{p}`", p)

    # --- prose in other languages
    p = pw()
    S("prose_password", "password", f"我的数据库密码是 {p}，你帮我连一下看看慢查询。", p, "zh")
    p = pw()
    S("prose_password", "password", f"测试服 root 密码：{p}（全角冒号后面就是），明天会改。", p, "zh")
    p = pw()
    S("prose_password", "password", f"帮我登录一下后台，账号 liwei@corp，密码 {p}，登录后把导出报表发我。", p, "zh")
    p = pw()
    S("prose_password", "password", f"堡垒机的密码改成了{p}了，原来那个作废。", p, "zh")
    p = pw()
    S("prose_password", "password", f"跳板機帳號是 ops，密碼：{p}，請不要截圖分享。", p, "zh-Hant")
    p = pw()
    S("prose_password", "password", f"本番DBのパスワードは {p} です。作業が終わったら教えてください。", p, "ja")
    p = pw()
    S("prose_password", "password", f"管理画面のログイン情報：ユーザー名 admin、パスワード：{p}", p, "ja")
    p = pw()
    S("prose_password", "password", f"서버 접속 정보 공유드립니다. 계정: deploy, 비밀번호: {p}", p, "ko")
    p = pw()
    S("prose_password", "password", f"Das Passwort für den Jenkins-Admin lautet {p} – bitte nach dem Login sofort ändern.", p, "de")
    p = pw()
    S("prose_password", "password", f"Le mot de passe du compte de service est « {p} », ne le partage pas sur Slack.", p, "fr")
    p = pw()
    S("prose_password", "password", f"La contraseña del router de la oficina es {p}, la cambié ayer.", p, "es")
    p = pw()
    S("prose_password", "password", f"A senha do banco de homologação é {p}; o usuário é app_hml.", p, "pt")
    p = pw()
    S("prose_password", "password", f"Пароль от админки: {p}. Логин тот же, что и раньше.", p, "ru")
    p = pw()
    S("prose_password", "password", f"La password dell'utente di backup è {p}, valida fino a fine mese.", p, "it")
    p = pw()
    S("prose_password", "password", f"Mật khẩu máy chủ staging là {p}, đừng gửi lên nhóm chung nhé.", p, "vi")
    p = pw()
    S("prose_password", "password", f"รหัสผ่านของบัญชีแอดมินคือ {p} กรุณาเปลี่ยนหลังเข้าสู่ระบบครั้งแรก", p, "th")
    p = pw()
    S("prose_password", "password", f"كلمة المرور لحساب الخادم هي {p} يرجى عدم مشاركتها", p, "ar")
    p = pw()
    S("prose_password", "password", f"Sunucunun root şifresi: {p} — yarın değiştireceğim.", p, "tr")
    p = pw()
    S("prose_password", "password", f"Kata sandi database produksi: {p}. Tolong jangan disimpan di catatan publik.", p, "id")
    p = pw()
    S("prose_password", "password", f"Hasło do panelu administracyjnego to {p}, zmień je po pierwszym logowaniu.", p, "pl")
    p = pw()
    S("prose_password", "password", f"Het wachtwoord van de NAS is {p}; gebruikersnaam is beheer.", p, "nl")
    p = pw_words()
    S("prose_passphrase", "password", f"密钥库的口令是“{p}”，导入证书时会问。", p, "zh")
    p = pw_words()
    S("prose_passphrase", "password", f"GPG 鍵のパスフレーズ：{p}", p, "ja")
    p = "correct " + pick(["horse", "lamp", "river"]) + " " + pick(["battery", "violin", "cactus"]) + " " + rs(LO, 5) + " " + str(R.randint(10, 99))
    S("prose_passphrase", "password", f"Passphrase for the backup repo (restic): \"{p}\" — yes, with the spaces.", p)


# =============================================================================================
# SECRETS: network (credentials of network gear and links) and path (a credential carried in a
# URL path or fragment: webhook URLs, bot tokens, capability links)
# =============================================================================================
def network():
    c = rs(ALNUM, 12)
    S("snmp_community", "network",
      f"sw-core-01#show running-config | include snmp\nsnmp-server community {c} RO 10\nsnmp-server community public RO\nsnmp-server location DC1-Row4", c)
    c = rs(ALNUM, 14)
    S("snmp_community", "network", f"$ snmpwalk -v2c -c {c} 10.10.0.1 IF-MIB::ifDescr\nIF-MIB::ifDescr.1 = STRING: GigabitEthernet0/0", c)
    t7 = f"{R.randint(0, 15):02d}" + rs(HEXU, 22)
    S("cisco_type7_password", "network",
      f"!\nusername netadmin privilege 15 password 7 {t7}\nenable secret 9 $9${rs(ALNUM + './', 14)}${rs(ALNUM + './', 43)}\n!", t7)
    p = pw(specials="!#%^*_-+=.?")
    S("cisco_enable_secret_plain", "network",
      f"R1#configure terminal\nEnter configuration commands, one per line.  End with CNTL/Z.\nR1(config)#enable secret {p}\nR1(config)#line vty 0 4\nR1(config-line)#login local", p)
    j9 = "$9$" + rs(ALNUM + "./-", 30)
    S("junos_encrypted_password", "network",
      f"system {{\n    root-authentication {{\n        encrypted-password \"$6${rs(ALNUM + './', 8)}${rs(ALNUM + './', 86)}\";\n    }}\n}}\nprotocols {{\n    bgp {{\n        group transit {{\n            authentication-key \"{j9}\"; ## SECRET-DATA\n        }}\n    }}\n}}", j9)
    p = pw()
    S("ipmi_password", "network", f"$ ipmitool -I lanplus -H 10.0.50.17 -U ADMIN -P '{p}' chassis power status\nChassis Power is on", p)
    p = pw()
    S("ipmi_password", "network", f"iDRAC のログイン情報です。ユーザー root、パスワード {p}（工場出荷時の calvin から変更済み）", p, "ja")
    p = pw()
    S("wifi_psk", "network",
      f"network={{\n    ssid=\"ACME-Office\"\n    psk=\"{p}\"\n    key_mgmt=WPA-PSK\n    priority=10\n}}", p)
    p = pw()
    S("wifi_psk", "network", f"$ nmcli dev wifi connect Lab-5G password '{p}' ifname wlp3s0\nDevice 'wlp3s0' successfully activated with '{uuid4()}'.", p)
    p = pw()
    S("wifi_psk", "network", f"公司访客 WiFi：ACME-Guest，密码 {p}，每周一更换。", p, "zh")
    p = pw(specials="!#%^*_-+=.?")
    S("wifi_psk", "network", f"Wi-Fi QR payload: WIFI:T:WPA;S:Cafe-Lumen;P:{p};H:false;;", p)
    p = pw(24)
    S("vpn_psk", "network",
      f"# /etc/ipsec.secrets - strongSwan IPsec secrets file\n203.0.113.10 198.51.100.7 : PSK \"{p}\"", p)
    p = pw(24)
    S("vpn_psk", "network",
      f"config vpn ipsec phase1-interface\n    edit \"to-branch-lyon\"\n        set interface \"wan1\"\n        set remote-gw 198.51.100.44\n        set psksecret {p}\n    next\nend", p)
    p = pw(20)
    S("vpn_psk", "network", f"Der Pre-Shared Key für den Site-to-Site-Tunnel nach Graz ist {p}.", p, "de")
    k = b64(rbytes(32))
    S("wireguard_private_key", "network",
      f"[Interface]\nAddress = 10.8.0.2/24\nPrivateKey = {k}\nDNS = 10.8.0.1\n\n[Peer]\nPublicKey = {b64(rbytes(32))}\nEndpoint = vpn.acme.io:51820\nAllowedIPs = 0.0.0.0/0", k)
    s = rs(ALNUM, 18)
    S("radius_shared_secret", "network", f"client wlc-hq {{\n    ipaddr = 10.1.0.40\n    secret = {s}\n    shortname = wlc\n}}", s)
    s = rs(ALNUM, 16)
    S("tacacs_key", "network", f"tacacs server ISE-01\n address ipv4 10.2.0.11\n key 0 {s}\n timeout 5", s)
    s = pw(16, "!#%^*_-+=.?")
    S("bgp_neighbor_password", "network", f"router bgp 64512\n neighbor 198.51.100.1 remote-as 64496\n neighbor 198.51.100.1 password {s}\n neighbor 198.51.100.1 description TRANSIT-A", s)
    s = rs(ALNUM, 12)
    S("ospf_md5_key", "network", f"interface Vlan20\n ip ospf authentication message-digest\n ip ospf message-digest-key 1 md5 {s}", s)
    s = rs(ALNUM, 8)
    S("keepalived_auth_pass", "network",
      f"vrrp_instance VI_1 {{\n    state MASTER\n    interface eth0\n    virtual_router_id 51\n    authentication {{\n        auth_type PASS\n        auth_pass {s}\n    }}\n}}", s)
    s = pw()
    S("mikrotik_ppp_secret", "network", f"[admin@gw] > /ppp secret add name=vpn-anna password={s} profile=default-encryption service=l2tp", s)


def paths():
    t = f"{R.randint(10**9, 8 * 10**9)}:AA{rs(B64URL, 33)}"
    S("telegram_bot_token_url", "path",
      f"2026-12-01 21:04:11,392 INFO httpx: HTTP Request: POST https://api.telegram.org/bot{t}/getUpdates \"HTTP/1.1 200 OK\"", t)
    t = f"{R.randint(10**9, 8 * 10**9)}:AA{rs(B64URL, 33)}"
    S("telegram_bot_token_url", "path", f"curl -s \"https://api.telegram.org/bot{t}/sendMessage?chat_id=-100{R.randint(10**9, 10**10)}&text=deploy%20ok\"", t)
    t = rs(B64URL, 68)
    S("discord_webhook_url", "path",
      f"DISCORD_WEBHOOK=https://discord.com/api/webhooks/{R.randint(10**17, 10**18)}/{t}", t)
    t = rs(ALNUM, 24)
    S("slack_webhook_url", "path",
      f"Alertmanager receiver:\n  slack_configs:\n    - api_url: https://hooks.slack.com/services/T{rs(UPNUM, 10)}/B{rs(UPNUM, 10)}/{t}\n      channel: '#alerts-prod'", t)
    t = rs(HEX, 32)
    S("teams_webhook_url", "path",
      f"Teams 通知用の Incoming Webhook URL：https://acme.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{t}/{uuid4()}/V2{rs(B64URL, 43)}", t, "ja")
    t = rs(B64URL, 22)
    S("ifttt_webhook_key", "path", f"requests.post(f\"https://maker.ifttt.com/trigger/{{event}}/with/key/{t}\", json={{\"value1\": temp}})", t)
    t = rs(LOWNUM, 26)
    S("mattermost_webhook_url", "path", f"curl -i -X POST -H 'Content-Type: application/json' -d '{{\"text\": \"backup done\"}}' https://chat.acme.io/hooks/{t}", t)
    t = rs(LOWNUM, 7)
    S("zapier_hook_url", "path", f"Zapier catch hook 给表单用的：https://hooks.zapier.com/hooks/catch/{R.randint(10**6, 10**7)}/{t}/ ，别公开。", t, "zh")
    t = rs(B64URL, 22)
    S("capability_link_fragment", "path",
      f"Stuur ik je via Bitwarden Send: https://send.bitwarden.com/#{rs(B64URL, 22)}/{t} (verloopt na 1 keer openen).", t, "nl")
    t = rs(B64URL, 43)
    S("homeassistant_webhook_id", "path",
      f"automation:\n  - alias: garage\n    trigger:\n      platform: webhook\n      webhook_id: {t}\n# call: curl -X POST https://ha.familie-brandt.de/api/webhook/{t}", t)


# =============================================================================================
# SECRETS: dsn (the password of a connection string)
# =============================================================================================
def dsns():
    p = pw(specials="!*_-.")
    S("dsn_python_traceback", "dsn",
      "Traceback (most recent call last):\n  File \"/srv/report/app/db.py\", line 12, in <module>\n"
      f"    engine = create_engine(\"postgresql+psycopg2://report:{p}@pg-ro.internal:5432/dwh\", pool_pre_ping=True)\n"
      "  File \"/srv/report/.venv/lib/python3.12/site-packages/sqlalchemy/engine/create.py\", line 602, in create_engine\n"
      "sqlalchemy.exc.NoSuchModuleError: Can't load plugin: sqlalchemy.dialects:postgresql.psycopg2", p)
    p = pw(specials="!*_-.")
    S("dsn_java_exception", "dsn",
      "2026-12-01 09:12:44.101 ERROR 1 --- [main] com.zaxxer.hikari.pool.HikariPool : HikariPool-1 - Exception during pool initialization.\n"
      "java.sql.SQLException: Access denied for user 'orders'@'10.0.4.17' (using password: YES)\n"
      f"\tjdbcUrl........................jdbc:mysql://mysql-prod.internal:3306/orders?user=orders&password={p}&useSSL=true\n"
      "\tat com.mysql.cj.jdbc.exceptions.SQLError.createSQLException(SQLError.java:130)", p)
    p = pw(specials="!*_-.")
    S("dsn_go_panic", "dsn",
      f"panic: failed to connect to `host=pg-ledger.internal user=ledger_svc database=ledger`: failed SASL auth (dsn \"host=pg-ledger.internal port=5432 user=ledger_svc password={p} dbname=ledger sslmode=require\")\n\n"
      "goroutine 1 [running]:\nmain.main()\n\t/src/cmd/ledger/main.go:41 +0x1c5\nexit status 2", p)
    p = pw(specials="!*_-.")
    S("dsn_node_error", "dsn",
      f"MongoServerSelectionError: bad auth : authentication failed\n    at Topology.selectServer (/app/node_modules/mongodb/lib/sdam/topology.js:303:38) {{\n  reason: TopologyDescription {{ type: 'ReplicaSetNoPrimary' }},\n  uri: 'mongodb+srv://admin:{p}@cluster0.q8zfe.mongodb.net/shop?retryWrites=true&w=majority'\n}}", p)
    p = pw(specials="!*_-.")
    S("dsn_rust_error", "dsn",
      f"Error: pool timed out while waiting for an open connection\n\nCaused by:\n    0: error connecting to mysql://root:{p}@db:3306/inventory\n    1: Connection refused (os error 111)", p)
    p = pw(specials="_-.")
    S("amqp_dsn", "dsn", f"# celeryconfig.py\nbroker_url = 'amqp://celery:{p}@rabbitmq.internal:5672/tasks'\nresult_backend = 'redis://redis:6379/1'", p)
    p = rs(ALNUM, 32)
    S("redis_dsn", "dsn", f"REDIS_URL=rediss://default:{p}@eu1-fancy-owl-31207.upstash.io:6379", p)
    p = pw(specials="!*_-.")
    S("adonet_connection_string", "dsn",
      f"\"ConnectionStrings\": {{\n  \"Default\": \"Server=tcp:sql-crm-prod.database.windows.net,1433;Initial Catalog=crm;Persist Security Info=False;User ID=crmadmin;Password={p};MultipleActiveResultSets=False;Encrypt=True;\"\n}}", p)
    p = pw(specials="!*_-.")
    S("odbc_connection_string", "dsn",
      f"conn = pyodbc.connect('DRIVER={{ODBC Driver 18 for SQL Server}};SERVER=10.0.9.4;DATABASE=erp;UID=sa;PWD={p};TrustServerCertificate=yes')", p)
    p = pw(specials="_")
    S("oracle_jdbc_thin", "dsn", f"spring.datasource.url=jdbc:oracle:thin:hr_app/{p}@//ora-prod.internal:1521/ORCLPDB1", p)
    p = pw(specials="_-.")
    S("snowflake_dsn", "dsn", f"SNOWFLAKE_URL=snowflake://etl_user:{p}@acme-xy12345/analytics/public?warehouse=ETL_WH&role=TRANSFORMER", p)
    p = pw(specials="_-.")
    S("clickhouse_dsn", "dsn", f"$ clickhouse-client --host ch01.internal --user default --password '{p}' --query 'SELECT count() FROM logs.events'\n184220931", p)
    p = pw(specials="_-.")
    S("nats_dsn", "dsn", f"nc, err := nats.Connect(\"nats://orders:{p}@nats.internal:4222\")", p)
    p = pw(specials="_-.")
    S("mqtt_dsn", "dsn", f"mosquitto_sub -L 'mqtts://sensor-gw:{p}@a1b2c3.s1.eu.hivemq.cloud:8883/sensors/#' -v", p)
    p = pw(specials="_-.")
    S("smtp_url", "dsn", f"EMAIL_URL=smtp+tls://alerts%40acme.io:{p}@smtp.office365.com:587", p)
    p = pw(specials="_-.")
    S("sftp_url", "dsn", f"$ lftp sftp://acme_upload:{p}@files.partner-logistics.de -e 'mirror -R out/ /in/; bye'", p)
    p = pw(specials="_-.")
    S("cockroach_dsn", "dsn", f"cockroach sql --url 'postgresql://maxroach:{p}@free-tier14.aws-us-east-1.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full'", p)
    p = rs(B64URL, 43)
    S("neo4j_dsn", "dsn", f"NEO4J_URI=neo4j+s://neo4j:{p}@a1b2c3d4.databases.neo4j.io", p)
    p = pw(specials="_-.")
    S("elasticsearch_url", "dsn", f"$ curl -s 'https://elastic:{p}@es01.internal:9200/_cat/indices?v' | head -3\nhealth status index", p)
    p = "npg_" + rs(ALNUM, 12)
    S("neon_dsn", "dsn", f"DATABASE_URL=\"postgresql://neondb_owner:{p}@ep-cool-darkness-a1b2c3d4-pooler.eu-central-1.aws.neon.tech/neondb?sslmode=require\"", p)
    p = "pscale_pw_" + rs(B64URL, 43)
    S("planetscale_dsn", "dsn", f"DATABASE_URL='mysql://x7k2m9q1r4s8:{p}@aws.connect.psdb.cloud/storefront?sslaccept=strict'", p)
    p = pw(specials="_-.")
    S("sqlserver_url", "dsn", f"sqlx database create --database-url 'sqlserver://sa:{p}@localhost:1433/master'", p)
    raw = pw(specials="") + "@/#"
    enc = urllib.parse.quote(raw, safe="")
    S("urlencoded_dsn_password", "dsn", f"SQLALCHEMY_DATABASE_URI = \"postgresql://app:{enc}@db.internal:5432/app\"  # password had @ / # so it is percent-encoded", enc)
    p = pw(specials="_-.")
    insp = {"Env": [f"DATABASE_URL=postgres://strapi:{p}@pg:5432/strapi", "NODE_ENV=production", "HOST=0.0.0.0"], "Cmd": ["npm", "run", "start"]}
    S("docker_inspect_dsn", "dsn", "$ docker inspect cms --format '{{json .Config}}'\n" + json.dumps(insp), p)
    p = pw(specials="_-.")
    S("terraform_show_dsn", "dsn",
      f"# module.db.azurerm_mssql_database.main:\nresource \"azurerm_mssql_database\" \"main\" {{\n    id                  = \"/subscriptions/{uuid4()}/resourceGroups/rg-app/providers/Microsoft.Sql/servers/sql-app/databases/app\"\n    name                = \"app\"\n}}\n\nOutputs:\n\nconnection_string = \"Server=sql-app.database.windows.net;Database=app;User Id=sqladmin;Password={p};\"", p)
    p = pw(specials="_-.")
    S("rails_database_yml", "dsn", f"production:\n  <<: *default\n  url: postgis://geo:{p}@pg-geo.internal/geo_production\n  pool: 10", p)
    p = pw(specials="_-.")
    S("prose_dsn", "dsn", f"Prisma の .env はこれです：DATABASE_URL=\"mysql://app:{p}@10.0.0.8:3306/app\" 。マイグレーションが通りません。", p, "ja")
    p = pw(specials="_-.")
    S("prose_dsn", "dsn", f"生产库连接串：mysql://bi_reader:{p}@rm-bp1xyz.mysql.rds.aliyuncs.com:3306/bi ，只读账号。", p, "zh")
    p = pw(specials="_-.")
    S("prose_dsn", "dsn", f"Строка подключения к базе: postgresql://crm:{p}@10.2.0.15:5432/crm — проверь, пожалуйста, почему таймаут.", p, "ru")
    p = pw(specials="_-.")
    S("prose_dsn", "dsn", f"La cadena de conexión de Mongo es mongodb://tienda:{p}@mongo-0.mongo:27017/tienda?authSource=admin", p, "es")
    p = pw(specials="_-.")
    S("kafka_scram_jaas", "dsn",
      f"KAFKA_OPTS=\"-Djava.security.auth.login.config=/etc/kafka/jaas.conf\"\n# jaas.conf\nKafkaClient {{\n  org.apache.kafka.common.security.scram.ScramLoginModule required\n  username=\"stream-app\"\n  password=\"{p}\";\n}};", p)


# =============================================================================================
# SECRETS: http (headers, cookies, credentials in URLs)
# =============================================================================================
def https():
    t = rs(B64URL, 48)
    S("curl_bearer", "http",
      "$ curl -v https://api.internal.acme.io/v2/invoices?limit=1\n*   Trying 10.0.1.20:443...\n* Connected to api.internal.acme.io (10.0.1.20) port 443\n"
      f"> GET /v2/invoices?limit=1 HTTP/2\n> Host: api.internal.acme.io\n> user-agent: curl/8.7.1\n> accept: */*\n> authorization: Bearer {t}\n>\n< HTTP/2 200", t)
    b = b64("svc-reporting:" + pw())
    S("curl_basic", "http",
      f"$ curl -v -u svc-reporting https://jenkins.acme.local/api/json\nEnter host password for user 'svc-reporting':\n> GET /api/json HTTP/1.1\n> Host: jenkins.acme.local\n> Authorization: Basic {b}\n< HTTP/1.1 200 OK", b)
    sid = rs(LOWNUM, 32)
    S("set_cookie_django", "http",
      f"< HTTP/1.1 302 Found\n< Location: /admin/\n< Set-Cookie: csrftoken={rs(ALNUM, 32)}; expires=Wed, 01 Dec 2027 10:00:00 GMT; Max-Age=31449600; Path=/; SameSite=Lax\n< Set-Cookie: sessionid={sid}; expires=Wed, 16 Dec 2026 10:00:00 GMT; HttpOnly; Max-Age=1209600; Path=/; SameSite=Lax", sid)
    ls = "eyJpdiI6I" + rs(B64, 40) + "In0%3D"
    lsv = "eyJpdiI6I" + rs(B64, 180) + "%3D%3D"
    S("laravel_session_cookie", "http",
      f"GET /dashboard HTTP/1.1\nHost: tienda.acme.es\nCookie: XSRF-TOKEN={ls}; laravel_session={lsv}\nUser-Agent: Mozilla/5.0", lsv)
    b = b64("jdoe:" + pw())
    S("proxy_authorization", "http", f"CONNECT pypi.org:443 HTTP/1.1\nHost: pypi.org:443\nProxy-Authorization: Basic {b}\nUser-Agent: pip/24.3", b)
    k = rs(ALNUM, 40)
    S("x_api_key_header", "http", f"http POST https://api.partner-logistics.de/v1/shipments X-Api-Key:{k} weight:=2.4 dest=DE-10115", k)
    k = rs(HEX, 32)
    S("azure_openai_api_key_header", "http",
      f"POST https://oai-acme-swe.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21\napi-key: {k}\ncontent-type: application/json", k)
    t = rs(B64URL, 40)
    S("query_access_token", "http",
      f"10.0.3.7 - - [01/Dec/2026:13:55:02 +0000] \"GET /api/v1/export?format=csv&access_token={t} HTTP/1.1\" 200 48211 \"-\" \"python-requests/2.32.3\"", t)
    k = rs(HEX, 32)
    S("query_api_key", "http", f"DEBUG:urllib3.connectionpool:https://api.openweathermap.org:443 \"GET /data/2.5/weather?q=Lyon&appid={k}&units=metric HTTP/1.1\" 200 512", k)
    t = "ghs_" + rs(ALNUM, 36)
    S("git_config_token_url", "http",
      f"$ cat .git/config\n[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n\turl = https://x-access-token:{t}@github.com/acme/infra.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*", t)
    t = "glpat-" + rs(B64URL, 20)
    S("git_config_token_url", "http", f"$ git remote -v\norigin\thttps://oauth2:{t}@gitlab.com/acme/mobile-app.git (fetch)\norigin\thttps://oauth2:{t}@gitlab.com/acme/mobile-app.git (push)", t)
    p = pw(specials="_-.")
    S("pip_conf_credentials", "http",
      f"$ pip config list\nglobal.index-url='https://ci-reader:{p}@nexus.acme.local/repository/pypi-all/simple'\nglobal.trusted-host='nexus.acme.local'", p)
    t = rs(B64URL, 64)
    coll = {"info": {"name": "Billing API", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
            "auth": {"type": "bearer", "bearer": [{"key": "token", "value": t, "type": "string"}]}}
    S("postman_collection_bearer", "http", json.dumps(coll, indent=2), t)
    tok = jwt({"sub": uuid4(), "email": "m.rossi@acme.it", "scope": "orders:read orders:write", "exp": 1764700000, "iss": "https://auth.acme.it/"}, kid=rs(HEX, 16))
    har = {"request": {"method": "GET", "url": "https://api.acme.it/orders/8812", "headers": [{"name": "accept", "value": "application/json"},
                                                                                            {"name": "authorization", "value": "Bearer " + tok}]}}
    S("har_authorization", "http", json.dumps(har), tok)
    c = rs(B64, 200) + "--" + rs(B64, 24) + "--" + rs(HEX, 40)
    S("rails_session_cookie", "http", f"Cookie: _storefront_session={urllib.parse.quote(c, safe='')}; locale=de", urllib.parse.quote(c, safe=""))
    sid = "s%3A" + rs(B64URL, 32) + "." + urllib.parse.quote(rs(B64, 43), safe="")
    S("express_session_cookie", "http", f"> Cookie: connect.sid={sid}\n> Accept: text/html", sid)
    sid = rs(LOWNUM, 26)
    S("phpsessid_cookie", "http", f"curl 'https://shop.acme.pl/koszyk' -H 'Cookie: PHPSESSID={sid}; cookie_consent=1'", sid)
    fl = "." + b64u(rbytes(60)) + "." + rs(B64URL, 6) + "." + rs(B64URL, 27)
    S("flask_session_cookie", "http", f"Set-Cookie: session={fl}; HttpOnly; Path=/", fl)
    ck = "CfDJ8" + rs(B64URL, 300)
    S("aspnet_auth_cookie", "http", f"Cookie: .AspNetCore.Cookies={ck}; .AspNetCore.Antiforgery.Xk2={rs(B64URL, 40)}", ck)
    js = rs(HEXU, 32)
    S("jsessionid_cookie", "http", f"GET /portal/home.do;jsessionid={js} HTTP/1.1\nHost: portal.acme.local:8443\nCookie: JSESSIONID={js}", js)
    na = ".".join([b64u(json.dumps({"alg": "dir", "enc": "A256GCM"})), "", rs(B64URL, 22), rs(B64URL, 300), rs(B64URL, 22)])
    S("nextauth_session_cookie", "http", f"__Secure-next-auth.session-token={na}; Path=/; Secure; HttpOnly; SameSite=Lax", na)
    tok = jwt({"iss": "https://securetoken.google.com/acme-app", "aud": "acme-app", "user_id": rs(ALNUM, 28), "exp": 1764700300}, kid=rs(HEX, 40))
    S("python_http_debug", "http",
      f"send: b'GET /v1/profile HTTP/1.1\\r\\nHost: api.acme.app\\r\\nUser-Agent: python-requests/2.32.3\\r\\nAuthorization: Bearer {tok}\\r\\n\\r\\n'\nreply: 'HTTP/1.1 200 OK\\r\\n'", tok)
    t = rs(ALNUM, 40)
    S("wget_header", "http", f"wget --header=\"Authorization: token {t}\" -O release.tar.gz https://git.acme.local/api/v1/repos/ops/tools/archive/v1.4.tar.gz", t)
    t = rs(B64URL, 32)
    S("websocket_token", "http", f"WebSocket connection to 'wss://rt.acme.io/socket?vsn=2.0.0&token={t}' failed: Error during WebSocket handshake", t)
    tok = jwt({"iss": "https://securetoken.google.com/acme-mobile", "aud": "acme-mobile", "auth_time": 1764600000, "user_id": rs(ALNUM, 28),
               "email": "nguyen.thu@gmail.com", "exp": 1764603600}, kid=rs(HEX, 40))
    S("devtools_copy_as_curl", "http",
      f"curl 'https://firestore.googleapis.com/v1/projects/acme-mobile/databases/(default)/documents/users' \\\n  -H 'accept: */*' \\\n  -H 'authorization: Bearer {tok}' \\\n  --compressed", tok)
    t = rs(B64URL, 43)
    S("prose_authorization_header", "http", f"调接口的时候请求头要带上 Authorization: Bearer {t}，否则返回 401。", t, "zh")
    p = pw(specials="_-.")
    S("url_userinfo_password", "http", f"Grafana は https://admin:{p}@grafana.lab.local:3000 で開けます（Basic 認証）。", p, "ja")
    sd = f"{rs(HEX, 8)}%2C{R.randint(1760000000, 1780000000)}%2C{rs(HEX, 5)}%2A{rs(HEX, 2)}{rs(B64URL, 60)}"
    S("sessdata_cookie", "http", f"把浏览器里 B 站的 SESSDATA 复制出来填到配置里：SESSDATA={sd}", sd, "zh")
    t = rs(B64URL, 40)
    S("prose_api_header", "http", f"Der Webhook braucht den Header X-Auth-Token: {t} – sonst lehnt der Server ab.", t, "de")


# =============================================================================================
# SECRETS: pem (private keys; `secret` is the base64 body)
# =============================================================================================
def pem_b64(prefix, total, width=64, pad=""):
    s = prefix + rs(B64, total - len(prefix) - len(pad)) + pad
    return "\n".join(s[i:i + width] for i in range(0, len(s), width))


def pems():
    body = pem_b64("MIIEowIBAAKCAQEA", 1588, pad="==")
    ind = "\n".join("    " + ln for ln in body.split("\n"))
    S("pem_rsa_yaml_block", "pem",
      f"ingress:\n  tls:\n    crt: |\n      -----BEGIN CERTIFICATE-----\n      MIIDdzCCAl+gAwIBAgIE...\n      -----END CERTIFICATE-----\n  key: |\n    -----BEGIN RSA PRIVATE KEY-----\n{ind}\n    -----END RSA PRIVATE KEY-----",
      ind.strip())
    body = pem_b64("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACA", 400, width=70)
    S("pem_openssh", "pem",
      f"$ cat ~/.ssh/id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----\n$ ssh-keygen -y -f ~/.ssh/id_ed25519", body)
    body = pem_b64("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn", 2600, width=70)
    esc = body.replace("\n", "\\n")
    S("pem_openssh_json_escaped", "pem",
      '{"name": "deploy-key", "type": "ssh", "private_key": "-----BEGIN OPENSSH PRIVATE KEY-----\\n' + esc + '\\n-----END OPENSSH PRIVATE KEY-----\\n"}', esc)
    body = pem_b64("MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg", 184)
    S("pem_pkcs8_ec_p8", "pem",
      f"$ cat AuthKey_{rs(UPNUM, 10)}.p8\n-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----", body)
    body = pem_b64("MIIEpAIBAAKCAQEA", 1588, pad="=")
    esc = body.replace("\n", "\\n")
    st = {"type": "tls_private_key", "name": "ssh", "instances": [{"attributes": {"algorithm": "RSA", "rsa_bits": 2048,
          "private_key_pem": "-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n-----END RSA PRIVATE KEY-----\n", "public_key_openssh": "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + rs(B64, 40)}}]}
    S("pem_terraform_state", "pem", json.dumps(st, indent=2), esc)
    body = pem_b64("MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", 1752)
    S("pem_encrypted_pkcs8", "pem", f"-----BEGIN ENCRYPTED PRIVATE KEY-----\n{body}\n-----END ENCRYPTED PRIVATE KEY-----", body)
    priv = rs(B64, 48)
    S("putty_ppk", "pem",
      f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20261201\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI{rs(B64, 43)}\n{rs(B64, 20)}\nPrivate-Lines: 1\n{priv}\nPrivate-MAC: {rs(HEX, 64)}", priv)
    raw = "-----BEGIN EC PRIVATE KEY-----\n" + pem_b64("MHcCAQEEI", 164) + "\n-----END EC PRIVATE KEY-----\n"
    ckd = b64(raw)
    S("kubeconfig_client_key_data", "pem",
      f"users:\n- name: kind-dev\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSURJVENDQWdtZ0F3SUJBZ0lJ{rs(B64, 60)}\n    client-key-data: {ckd}", ckd)
    body = pem_b64("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIB", 1624)
    esc = body.replace("\n", "\\n")
    sa = {"type": "service_account", "project_id": "billing-prd-7731", "private_key_id": rs(HEX, 40),
          "private_key": "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n",
          "client_email": "exporter@billing-prd-7731.iam.gserviceaccount.com", "client_id": str(R.randint(10**20, 10**21))}
    S("gcp_service_account_key", "pem", "这是服务账号的 JSON，帮我看看为什么 403：\n" + json.dumps(sa, indent=2, ensure_ascii=False), esc, "zh")
    body = pem_b64("MHcCAQEEI", 164)
    esc = body.replace("\n", "\\n")
    S("coinbase_cdp_key", "pem",
      json.dumps({"name": f"organizations/{uuid4()}/apiKeys/{uuid4()}", "privateKey": "-----BEGIN EC PRIVATE KEY-----\n" + body + "\n-----END EC PRIVATE KEY-----\n"}, indent=2), esc)
    one = "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQ" + rs(B64, 1570)
    S("alipay_app_private_key", "pem",
      f"AlipayConfig config = new AlipayConfig();\nconfig.setServerUrl(\"https://openapi.alipay.com/gateway.do\");\nconfig.setAppId(\"2021{rs(DG, 12)}\");\nconfig.setPrivateKey(\"{one}\");\nconfig.setFormat(\"json\");", one)
    body = pem_b64("lQdGBGc", 3200)
    S("pgp_private_key", "pem",
      f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{body}\n={rs(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----", body)
    body = pem_b64("MIIEogIBAAKCAQEA", 1588)
    S("pem_python_string", "pem",
      f"DEPLOY_KEY = \"\"\"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\"\"\"\n\nparamiko.RSAKey.from_private_key(io.StringIO(DEPLOY_KEY))", body)
    raw = "-----BEGIN PRIVATE KEY-----\n" + pem_b64("MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIB", 1624) + "\n-----END PRIVATE KEY-----\n"
    tk = b64(raw)
    S("k8s_tls_secret_key", "pem",
      f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: api-tls\ntype: kubernetes.io/tls\ndata:\n  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t{rs(B64, 80)}\n  tls.key: {tk}", tk)
    body = pem_b64("MIIEpQIBAAKCAQEA", 1588)
    S("pem_rsa_prose", "pem",
      f"踏み台サーバー用の秘密鍵を貼ります。終わったら消してください。\n-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----", body, "ja")
    body = pem_b64("MIIBuwIBAAKBgQ", 600)
    S("pem_dsa", "pem", f"-----BEGIN DSA PRIVATE KEY-----\n{body}\n-----END DSA PRIVATE KEY-----", body)


# =============================================================================================
# SECRETS: contact (emails, phone numbers, postal addresses)
# =============================================================================================
def nd(n, first="123456789"):
    return pick(first) + rs(DG, n - 1)


def contacts():
    e = "chen.jing.dev@gmail.com"
    S("email_git_author", "contact",
      f"$ git log -1 --format=fuller\ncommit {rs(HEX, 40)}\nAuthor:     Chen Jing <{e}>\nAuthorDate: Mon Nov 30 22:41:07 2026 +0800\nCommit:     Chen Jing <{e}>\n\n    fix: retry on 429", e)
    e = "katrin.mueller84@web.de"
    S("email_display_name", "contact", f"From: \"Müller, Katrin\" <{e}>\nTo: support@acme.de\nSubject: Re: Rechnung 2026-1187", e, "de")
    e = "t.yamamoto1987@docomo.ne.jp"
    S("email_prose", "contact", f"連絡先メール：{e}（平日 9 時〜18 時）", e, "ja")
    e = "priya.raman [at] protonmail [dot] com"
    S("email_obfuscated", "contact", f"Not comfortable posting it plainly, so: {e} — ping me there about the contract.", e)
    e = "wangfang_1990(at)163.com"
    S("email_obfuscated", "contact", f"有问题发我邮箱 {e}，把 (at) 换成 @ 就行。", e, "zh")
    e = "j.okafor@outlook.com"
    S("email_mailto", "contact", f"<p>Questions? <a href=\"mailto:{e}?subject=Beta%20access\">Email Jide</a></p>", e)
    e = "lucia.fernandez.m@hotmail.es"
    S("email_prose", "contact", f"Hola, mi correo personal es {e}, escríbeme ahí mejor que al del trabajo.", e, "es")
    e = "sokolova.an@yandex.ru"
    S("email_csv_row", "contact", f"id,name,email,city\n1042,Анна Соколова,{e},Казань", e, "ru")
    e = "minh.tran.2001@yahoo.com.vn"
    S("email_prose", "contact", f"Email cá nhân của mình: {e}", e, "vi")

    p = f"1{pick('3456789')}{rs(DG, 1)} {rs(DG, 4)} {rs(DG, 4)}"
    S("phone_cn", "contact", f"快递收件人：刘洋，手机 {p}，放门卫就行。", p, "zh")
    p = f"+86-1{pick('3589')}{rs(DG, 1)}-{rs(DG, 4)}-{rs(DG, 4)}"
    S("phone_cn", "contact", f"Contact (China office): Mr. Zhou, {p}", p)
    p = f"1{pick('3589')}{rs(DG, 9)}"
    S("phone_cn", "contact", f"{{\"name\": \"黄磊\", \"mobile\": \"{p}\", \"dept\": \"财务部\"}}", p, "zh")
    p = f"+852 {pick('569')}{rs(DG, 3)} {rs(DG, 4)}"
    S("phone_hk", "contact", f"如有問題請致電陳先生 {p}（WhatsApp 亦可）。", p, "zh-Hant")
    p = f"{pick('569')}{rs(DG, 3)}-{rs(DG, 4)}"
    S("phone_hk", "contact", f"HK courier pickup: call {p} before 6pm, ask for Ms Wong.", p)
    p = f"09{rs(DG, 2)}-{rs(DG, 3)}-{rs(DG, 3)}"
    S("phone_tw", "contact", f"聯絡人：林小姐，手機 {p}", p, "zh-Hant")
    p = f"+886 9{rs(DG, 2)} {rs(DG, 3)} {rs(DG, 3)}"
    S("phone_tw", "contact", f"Taipei vendor contact: {p} (Line ID same number)", p)
    p = f"0{pick('789')}0-{rs(DG, 4)}-{rs(DG, 4)}"
    S("phone_jp", "contact", f"担当の佐藤さんの携帯は {p} です。", p, "ja")
    p = f"+81 {pick('789')}0-{rs(DG, 4)}-{rs(DG, 4)}"
    S("phone_jp", "contact", f"Emergency contact in Osaka: Kenji Ito, {p}", p)
    p = f"010-{rs(DG, 4)}-{rs(DG, 4)}"
    S("phone_kr", "contact", f"배송 기사님 연락처: {p} (김민준)", p, "ko")
    p = f"+82 10 {rs(DG, 4)} {rs(DG, 4)}"
    S("phone_kr", "contact", f"Seoul office, ask for Ms. Park: {p}", p)
    p = f"({nd(3, '2345789')}) {nd(3, '2346789')}-{rs(DG, 4)}"
    S("phone_us", "contact", f"Customer called back from {p}, wants a refund on order 88121.", p)
    p = f"+1 {nd(3, '2345789')}-{nd(3, '2346789')}-{rs(DG, 4)}"
    S("phone_us", "contact", f"| name | phone |\n|---|---|\n| Dana Whitfield | {p} |", p)
    p = f"07{pick('3459')}{rs(DG, 2)} {rs(DG, 6)}"
    S("phone_uk", "contact", f"Landlord's mobile is {p}, text before calling.", p)
    p = f"+44 7{pick('3459')}{rs(DG, 2)} {rs(DG, 3)} {rs(DG, 3)}"
    S("phone_uk", "contact", f"{{\"contact\":{{\"name\":\"Oliver Bennett\",\"tel\":\"{p}\"}}}}", p)
    p = f"+49 1{pick('567')}{rs(DG, 1)} {rs(DG, 8)}"
    S("phone_de", "contact", f"Bei Rückfragen erreichen Sie mich unter {p}.", p, "de")
    p = f"01{pick('567')}{rs(DG, 1)} {rs(DG, 7)}"
    S("phone_de", "contact", f"Ansprechpartner vor Ort: Herr Schäfer, Tel. {p}", p, "de")
    p = f"0{pick('67')} {rs(DG, 2)} {rs(DG, 2)} {rs(DG, 2)} {rs(DG, 2)}"
    S("phone_fr", "contact", f"Tu peux appeler Camille au {p} pour la remise des clés.", p, "fr")
    p = f"+33 {pick('67')} {rs(DG, 2)} {rs(DG, 2)} {rs(DG, 2)} {rs(DG, 2)}"
    S("phone_fr", "contact", f"Livraison : M. Lefèvre, {p}, 3e étage.", p, "fr")
    p = f"+91 {pick('6789')}{rs(DG, 4)} {rs(DG, 5)}"
    S("phone_in", "contact", f"Delivery partner: Ravi Kumar, {p}", p)
    p = f"0{pick('6789')}{rs(DG, 4)}-{rs(DG, 5)}"
    S("phone_in", "contact", f"Please share OTP only with the agent; his number is {p}.", p)
    p = f"(11) 9{rs(DG, 4)}-{rs(DG, 4)}"
    S("phone_br", "contact", f"Meu WhatsApp é {p}, me chama lá.", p, "pt")
    p = f"+55 21 9{rs(DG, 4)}-{rs(DG, 4)}"
    S("phone_br", "contact", f"Contato do fornecedor no Rio: {p} (Sr. Almeida)", p, "pt")

    a = f"朝阳区望京街道阜通东大街{R.randint(1, 30)}号院{R.randint(1, 12)}号楼{R.randint(1, 30)}0{R.randint(1, 6)}室"
    S("address_cn", "contact", f"收货地址：北京市{a}，收件人：赵敏", a, "zh")
    a = f"大安區復興南路一段{R.randint(100, 399)}號{R.randint(2, 15)}樓之{R.randint(1, 5)}"
    S("address_tw", "contact", f"寄送地址：台北市{a}（請放管理室）", a, "zh-Hant")
    a = f"世田谷区太子堂{R.randint(1, 5)}丁目{R.randint(1, 30)}-{R.randint(1, 20)} コーポ三軒茶屋{R.randint(101, 305)}"
    S("address_jp", "contact", f"〒154-0004 東京都{a} 山田 花子 様", a, "ja")
    a = f"강남구 테헤란로{R.randint(1, 9)}길 {R.randint(10, 99)}, {R.randint(101, 1505)}호"
    S("address_kr", "contact", f"배송지: 서울특별시 {a} (받는 분: 이서연)", a, "ko")
    a = f"{R.randint(100, 9899)} Maple Ridge Dr, Apt {R.randint(1, 40)}{pick('ABCD')}"
    S("address_us", "contact", f"Ship to:\nMarcus Hill\n{a}\nAustin, TX 78745", a)
    a = f"Flat {R.randint(1, 30)}, {R.randint(2, 180)} Holloway Road"
    S("address_uk", "contact", f"Please post the replacement card to {a}, London N7 8DB.", a)
    a = f"Lindenstraße {R.randint(1, 120)}{pick(['', 'a', 'b'])}"
    S("address_de", "contact", f"Lieferadresse: Jonas Becker, {a}, 50674 Köln", a, "de")
    a = f"{R.randint(1, 80)} rue des Tanneurs"
    S("address_fr", "contact", f"Mon adresse : {a}, 67000 Strasbourg — sonnez chez « Girard ».", a, "fr")
    a = f"Rua Augusta, {R.randint(100, 2999)}, apto {R.randint(11, 190)}"
    S("address_br", "contact", f"Endereço de entrega: {a} – Consolação, São Paulo – SP, 01305-000", a, "pt")
    a = f"Calle de Embajadores {R.randint(1, 200)}, {R.randint(1, 8)}º {pick('ABCD')}"
    S("address_es", "contact", f"Envíalo a {a}, 28012 Madrid, a nombre de Pablo Ortega.", a, "es")


# =============================================================================================
# SECRETS: national_id
# =============================================================================================
def national_ids():
    v = cn_id()
    sp = f"{v[:6]} {v[6:14]} {v[14:]}"
    S("cn_resident_id", "national_id", f"身份证号：{sp}，姓名：王海燕，请核对后办理。", sp, "zh", ("cn_id", sp))
    v = cn_id()
    dash = f"{v[:6]}-{v[6:14]}-{v[14:]}"
    S("cn_resident_id", "national_id", f"KYC row 17: name=Li Qiang, id_type=CN_RIC, id_no={dash}, status=pending", dash, None, ("cn_id", dash))
    v = cn_id()
    S("cn_resident_id", "national_id", f"我把租房合同上的信息发你：乙方 孙悦，身份证 {v}，电话稍后给。", v, "zh", ("cn_id", v))
    l, d, c = hkid_parts()
    h = f"{l}{d}({c})"
    S("hk_id", "national_id", f"申請人：陳家豪　香港身份證號碼：{h}", h, "zh-Hant", ("hkid", h))
    l, d, c = hkid_parts()
    h = f"{l}{d}{c}"
    S("hk_id", "national_id", f"hkid={h} dob=1988-04-12 (from onboarding form, please purge after check)", h, None, ("hkid", h))
    v = tw_id()
    S("tw_national_id", "national_id", f"身分證字號 {v}，出生日期 民國 79 年 5 月 3 日", v, "zh-Hant", ("tw_id", v))
    v = macau_id()
    S("macau_resident_id", "national_id", f"澳門居民身份證編號：{v}，有效期至 2031 年", v, "zh-Hant")
    v = mynumber()
    sp = f"{v[:4]} {v[4:8]} {v[8:]}"
    S("jp_my_number", "national_id", f"マイナンバー（個人番号）：{sp}　※取り扱い注意", sp, "ja", ("mynumber", sp))
    v = mynumber()
    da = f"{v[:4]}-{v[4:8]}-{v[8:]}"
    S("jp_my_number", "national_id", f"Payroll import: employee 0417, my_number={da}, dependents=2", da, None, ("mynumber", da))
    v = kr_rrn()
    S("kr_rrn", "national_id", f"주민등록번호: {v} (본인 확인용)", v, "ko", ("kr_rrn", v))
    v = ssn()
    S("us_ssn", "national_id", f"W-4 draft for Karen Lopez — SSN {v}, filing status single.", v, None, ("ssn", v))
    v = ssn().replace("-", " ")
    S("us_ssn", "national_id", f"> what do you need for the background check?\nmy social is {v}, DOB 03/14/1991", v, None, ("ssn", v))
    v = itin()
    S("us_itin", "national_id", f"ITIN: {v} (issued 2019) — use it on the 1040-NR instead of an SSN.", v, None, ("itin", v))
    v = sin()
    f = f"{v[:3]} {v[3:6]} {v[6:]}"
    S("ca_sin", "national_id", f"Numéro d'assurance sociale : {f} — à inscrire sur le T4.", f, "fr", ("luhn", f))
    v = nino()
    f = f"{v[:2]} {v[2:4]} {v[4:6]} {v[6:8]} {v[8]}"
    S("uk_nino", "national_id", f"New starter form: NI number {f}, tax code 1257L.", f)
    v = de_taxid()
    f = f"{v[:2]} {v[2:5]} {v[5:8]} {v[8:]}"
    S("de_steuer_id", "national_id", f"Meine Steuer-ID lautet {f}, falls du sie für die Lohnabrechnung brauchst.", f, "de", ("de_taxid", f))
    ser = pick("CFGHJKLMNPRTVWXYZ") + rs("CFGHJKLMNPRTVWXYZ0123456789", 8)
    pa = ser + mrz_digit(ser)
    S("de_personalausweis", "national_id", f"Ausweisnummer (Personalausweis): {pa}, gültig bis 14.08.2031", pa, "de", ("de_ausweis", pa))
    n, k = fr_nir()
    f = f"{n[0]} {n[1:3]} {n[3:5]} {n[5:7]} {n[7:10]} {n[10:13]} {k}"
    S("fr_nir", "national_id", f"Numéro de sécurité sociale : {f}", f, "fr", ("fr_nir", f))
    v = es_dni()
    S("es_dni", "national_id", f"DNI del titular: {v}. Adjunto foto por ambas caras.", v, "es", ("es_dni", v))
    v = es_nie()
    S("es_nie", "national_id", f"Mi NIE es {v[0]}-{v[1:8]}-{v[8]}, lo necesito para el contrato.", f"{v[0]}-{v[1:8]}-{v[8]}", "es", ("es_dni", v))
    v = it_cf()
    S("it_codice_fiscale", "national_id", f"Codice fiscale: {v} — serve per la fattura elettronica.", v, "it", ("it_cf", v))
    v = bsn()
    f = f"{v[:4]}.{v[4:6]}.{v[6:]}"
    S("nl_bsn", "national_id", f"Mijn BSN is {f}, kun je dat doorgeven aan de salarisadministratie?", f, "nl", ("bsn", f))
    v = be_nrn()
    S("be_national_number", "national_id", f"Rijksregisternummer: {v}", v, "nl", ("be_nrn", v))
    v = pesel()
    S("pl_pesel", "national_id", f"PESEL pacjenta: {v}, skierowanie na badania.", v, "pl", ("pesel", v))
    v = pt_nif()
    S("pt_nif", "national_id", f"NIF para a fatura: {v[:3]} {v[3:6]} {v[6:]}", f"{v[:3]} {v[3:6]} {v[6:]}", "pt", ("pt_nif", v))
    v = se_pnr()
    S("se_personnummer", "national_id", f"Personnummer: {v} (sökande)", v, "sv", ("luhn", v))
    v = fi_hetu()
    S("fi_hetu", "national_id", f"Henkilötunnus {v}, asiakasnumero 55102.", v, "fi", ("fi_hetu", v))
    v = dk_cpr()
    S("dk_cpr", "national_id", f"CPR-nr.: {v} — bruges kun til lønsedlen.", v, "da", ("dk_cpr", v))
    v = no_fnr()
    S("no_fodselsnummer", "national_id", f"Fødselsnummer: {v[:6]} {v[6:]}", f"{v[:6]} {v[6:]}", "nb", ("no_fnr", v))
    v = at_svnr()
    S("at_svnr", "national_id", f"Sozialversicherungsnummer: {v} (e-card)", v, "de", ("at_svnr", v))
    v = ch_ahv()
    S("ch_ahv", "national_id", f"Numéro AVS : {v}", v, "fr", ("ean13", v))
    v = ie_pps(pick(["", "A"]))
    S("ie_pps", "national_id", f"PPSN {v} — needed for the Revenue myAccount registration.", v, None, ("ie_pps", v))
    v = cpf()
    S("br_cpf", "national_id", f"Nota fiscal em nome de Mariana Costa, CPF {v}.", v, "pt", ("cpf", v))
    v = cpf()
    S("br_cpf", "national_id", f"cpf={digits_only(v)}&nome=Joao+Pereira&nascimento=1990-02-11", digits_only(v), None, ("cpf", v))
    v = cnpj()
    S("br_cnpj", "national_id", f"MEI do João (empresa individual): CNPJ {v}, CPF do titular vinculado.", v, "pt", ("cnpj", v))
    v = curp()
    S("mx_curp", "national_id", f"CURP: {v} — tráelo impreso el día de la cita.", v, "es", ("curp", v))
    v = aadhaar()
    S("in_aadhaar", "national_id", f"Aadhaar: {v} (masked copy not accepted, they want full number)", v, None, ("verhoeff", v))
    v = aadhaar().replace(" ", "")
    S("in_aadhaar", "national_id", f"{{\"kyc\":{{\"type\":\"aadhaar\",\"number\":\"{v}\",\"name\":\"Sneha Iyer\"}}}}", v, None, ("verhoeff", v))
    v = pan()
    S("in_pan", "national_id", f"PAN card no. {v} for TDS deduction.", v)
    v = nric()
    S("sg_nric", "national_id", f"NRIC: {v}, Tan Wei Ling, tenancy from 1 Jan 2027", v, None, ("nric", v))
    v = "E" + rs(DG, 8)
    S("passport_cn", "national_id", f"护照号码：{v}，签发地 广东", v, "zh")
    v = rs(DG, 9)
    S("passport_us", "national_id", f"Passport No. {v}, exp 2033-06-30 — for the hotel registration in Lisbon.", v)
    v = "T" + pick("KRZ") + rs(DG, 7)
    S("passport_jp", "national_id", f"旅券番号 {v}　有効期限 2030年11月", v, "ja")
    v = "M" + rs(DG, 8)
    S("passport_kr", "national_id", f"여권번호: {v}", v, "ko")
    num = pick("CFGHJK") + rs("CFGHJKLMNPRTVWXYZ0123456789", 8)
    l2 = mrz_line2(num, "D<<", f"{R.randint(60, 99):02d}{R.randint(1, 12):02d}{R.randint(1, 28):02d}", pick("MF"), f"{R.randint(28, 35):02d}{R.randint(1, 12):02d}{R.randint(1, 28):02d}")
    S("passport_mrz", "national_id", f"P<D<<SCHMIDT<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<\n{l2}", l2, None, ("mrz", l2))
    num = "E" + pick("ABCDEGH") + rs(DG, 7)
    l2 = mrz_line2(num, "CHN", f"{R.randint(70, 99):02d}{R.randint(1, 12):02d}{R.randint(1, 28):02d}", pick("MF"), f"{R.randint(28, 35):02d}{R.randint(1, 12):02d}{R.randint(1, 28):02d}")
    S("passport_mrz", "national_id", f"OCR 识别结果：\nPOCHNZHANG<<WEI<<<<<<<<<<<<<<<<<<<<<<<<<<<<<\n{l2}", l2, "zh", ("mrz", l2))


# =============================================================================================
# SECRETS: financial
# =============================================================================================
def financials():
    c = card("4", 16)
    f = grp(c, [4, 4, 4, 4])
    S("card_visa", "financial", f"Card on file: {f} exp 09/29 — charge the deposit please.", f, None, ("luhn", f))
    c = card(pick(["51", "53", "55"]), 16)
    S("card_mastercard", "financial", f"{{\"payment\":{{\"pan\":\"{c}\",\"exp\":\"11/28\",\"holder\":\"A. NOWAK\"}}}}", c, None, ("luhn", c))
    c = card("2" + pick(["221", "5", "70"]), 16)
    f = grp(c, [4, 4, 4, 4], "-")
    S("card_mastercard", "financial", f"Karte: {f}, gültig bis 03/30", f, "de", ("luhn", f))
    c = card(pick(["34", "37"]), 15)
    f = grp(c, [4, 6, 5])
    S("card_amex", "financial", f"Amex {f}, CID on the front, please book the flights.", f, None, ("luhn", f))
    c = card("62" + rs(DG, 4), 16)
    f = grp(c, [4, 4, 4, 4])
    S("card_unionpay", "financial", f"银联卡号：{f}，开户行 招商银行", f, "zh", ("luhn", f))
    c = card("621" + rs(DG, 3), 19)
    S("card_unionpay", "financial", f"工资卡 {c}，户名 周杰，建设银行。", c, "zh", ("luhn", c))
    c = card("62" + rs(DG, 4), 19)
    f = grp(c, [6, 13])
    S("card_unionpay", "financial", f"退款請匯到 {f}（中國銀行 香港）", f, "zh-Hant", ("luhn", f))
    c = card("35" + pick(["28", "41", "62", "89"]), 16)
    f = grp(c, [4, 4, 4, 4])
    S("card_jcb", "financial", f"JCBカード番号：{f}　有効期限 07/28", f, "ja", ("luhn", f))
    c = card("6011", 16)
    S("card_discover", "financial", f"discover {c} 04/27 cvv in the other message", c, None, ("luhn", c))
    c = card("220" + pick("01234"), 16)
    f = grp(c, [4, 4, 4, 4])
    S("card_mir", "financial", f"Номер карты Мир: {f}, срок 12/27", f, "ru", ("luhn", f))
    c = card("6" + pick(["0", "5"]) + rs(DG, 2), 16)
    f = grp(c, [4, 4, 4, 4])
    S("card_rupay", "financial", f"RuPay debit card {f} linked to the UPI handle.", f, None, ("luhn", f))
    c = card("4" + rs(DG, 5), 16)
    f = grp(c, [4, 4, 4, 4])
    S("card_visa", "financial", f"Kartu kredit saya: {f}, berlaku sampai 10/29.", f, "id", ("luhn", f))
    c = card("5" + pick("12345"), 16)
    f = grp(c, [4, 4, 4, 4])
    S("card_mastercard", "financial", f"Numéro de carte : {f} — merci de débiter l'acompte.", f, "fr", ("luhn", f))
    for cc, lang, tmpl in [
        ("DE", "de", "Bitte überweise die Kaution auf {v} (Sparkasse, Kontoinhaberin L. Wagner)."),
        ("FR", "fr", "RIB pour le remboursement : IBAN {v} — BIC à suivre."),
        ("GB", None, "Pay invoice 4471 to IBAN {v}, reference ACME-4471."),
        ("ES", "es", "Mi cuenta para la nómina: {v}"),
        ("IT", "it", "IBAN per il bonifico: {v} intestato a Giulia Ricci"),
        ("NL", "nl", "Graag terugstorten op {v} t.n.v. S. de Vries"),
        ("BE", "fr", "Compte à créditer : {v}"),
        ("PL", "pl", "Numer konta do przelewu: {v}"),
        ("PT", "pt", "IBAN para o reembolso: {v}"),
        ("CH", "de", "IBAN (PostFinance): {v}"),
        ("SE", None, "Salary account (Sweden): {v}"),
        ("BR", "pt", "Conta no exterior: IBAN {v} (Banco do Brasil)"),
        ("TR", "tr", "Kira ödemesi için IBAN: {v}"),
        ("SA", "ar", "رقم الآيبان للتحويل: {v}"),
        ("AE", None, "Beneficiary IBAN: {v}, Emirates NBD, Dubai"),
        ("NO", None, "Kontonummer/IBAN: {v}"),
    ]:
        v = iban(cc, spaced=R.random() < 0.6)
        S(f"iban_{cc.lower()}", "financial", tmpl.format(v=v), v, lang, ("iban", v))
    a = rs(DG, 3) + "-" + rs(DG, 6) + "-" + rs(DG, 3)
    S("swift_account", "financial", f"Wire details: HSBC Hong Kong, SWIFT HSBCHKHHHKH, account no. {a}, beneficiary Lam Ka Yan.", a)
    a = "6" + rs(DG, 18)
    S("swift_account", "financial", f"收款行：中国银行上海分行，SWIFT：BKCHCNBJ300，账号：{a}，户名：上海某某贸易有限公司", a, "zh")
    a = rs(DG, 10)
    S("us_bank_account", "financial", f"Direct deposit: routing 0{rs(DG, 8)}, checking account {a} (Chase).", a)


# =============================================================================================
# BENIGN look-alikes
# =============================================================================================
def benign():
    # --- documented examples (a cautious redactor may remove some on purpose)
    B("doc_example", "From the AWS CLI guide:\n$ aws configure\nAWS Access Key ID [None]: AKIAIOSFODNN7EXAMPLE\nAWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nDefault region name [None]: us-west-2")
    B("doc_example", "AWS 文档里的示例密钥 AKIAIOSFODNN7EXAMPLE 只是占位符，真实的 AccessKeyId 不会以 EXAMPLE 结尾。", "zh")
    B("doc_example", "Paste this into jwt.io to see the decoded payload: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
    B("doc_example", "RFC 7617, section 2: the user-id \"Aladdin\" and password \"open sesame\" give the header\n    Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    B("doc_example", "Stripe test mode: use card 4242 4242 4242 4242 with any future expiry and any CVC; 4000 0000 0000 9995 always declines.")
    B("doc_example", "Testkarte für 3-D Secure im Sandbox-Modus: 4000 0027 6000 3184 (Stripe-Dokumentation).", "de")
    B("doc_example", "Twilio's docs show the Account SID as ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX and the auth token as your_auth_token.")
    B("doc_example", "Slack's own sample: SLACK_BOT_TOKEN=xoxb-not-a-real-token-this-will-not-work")
    B("doc_example", "Fictional numbers for films and docs: (555) 010-0199 and 555-0123 are reserved, so the test fixtures use them.")
    B("doc_example", "The IBAN format page uses DE89 3704 0044 0532 0130 00 as its example; our validator unit test does too.")
    B("doc_example", "Ejemplo de la documentación: el DNI 12345678Z es el que usan todos los tutoriales de validación.", "es")

    # --- placeholders
    B("placeholder", "curl https://api.openai.com/v1/models -H \"Authorization: Bearer <your-token>\"")
    B("placeholder", "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nANTHROPIC_API_KEY=sk-ant-xxxxxxxx")
    B("placeholder", "password: \"********\"  # set via the helm --set flag, never here")
    B("placeholder", "DB_PASSWORD=REDACTED\nDB_USER=app\nDB_HOST=db.internal")
    B("placeholder", "{\"api_key\": \"[REDACTED]\", \"model\": \"gpt-4o\", \"temperature\": 0.2}")
    B("placeholder", "把下面的 `<你的API密钥>` 替换成控制台里生成的 key：\nexport DASHSCOPE_API_KEY=<你的API密钥>", "zh")
    B("placeholder", "設定ファイルの `api_key: YOUR_API_KEY_HERE` を自分のキーに書き換えてください。", "ja")
    B("placeholder", "mysql -u root -p<password> -h 127.0.0.1   # replace <password>, no space after -p")
    B("placeholder", "aws_secret_access_key = XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")
    B("placeholder", "Ersetze TOKEN_HIER_EINFÜGEN durch deinen persönlichen Zugriffstoken.", "de")
    B("placeholder", "postgres://user:password@host:5432/dbname is the template; fill in your own values.")
    B("placeholder", "Remplacez « VOTRE_CLE_API » par la clé fournie dans l'espace client.", "fr")
    B("placeholder", "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX <- format of a classic token, 36 chars after the prefix")

    # --- references to a secret held elsewhere
    B("env_reference", "- name: Publish\n  run: npm publish\n  env:\n    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}")
    B("env_reference", "curl -H \"Authorization: Bearer $API_KEY\" https://api.acme.io/v1/me")
    B("env_reference", "client = OpenAI(api_key=os.environ[\"OPENAI_API_KEY\"])")
    B("env_reference", "const stripe = new Stripe(process.env.STRIPE_SECRET_KEY!, { apiVersion: '2025-09-30' });")
    B("env_reference", "String pass = System.getenv(\"DB_PASS\"); // injected by the platform")
    B("env_reference", "env:\n  - name: POSTGRES_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: pg-credentials\n        key: password")
    B("env_reference", "docker run -e PGPASSWORD=\"$(cat /run/secrets/pg_password)\" postgres:16 psql -h db")
    B("env_reference", "'key' => env('APP_KEY'),\n'cipher' => 'AES-256-CBC',")
    B("env_reference", "password = \"{{ .Values.db.password }}\"\nuser = \"{{ .Values.db.user }}\"")
    B("env_reference", "密码从环境变量读取：os.getenv(\"MYSQL_PWD\")，不要写死在代码里。", "zh")
    B("env_reference", "DATABASE_URL=postgres://${PGUSER}:${PGPASSWORD}@${PGHOST}:5432/${PGDATABASE}")

    # --- masked values
    B("masked_value", f"$ aws configure list\n      Name                    Value             Type    Location\naccess_key     ****************{rs(UP, 4)} shared-credentials-file\nsecret_key     ****************{rs(ALNUM, 4)} shared-credentials-file\n    region                eu-west-1      config-file    ~/.aws/config")
    B("masked_value", "2026-12-01T08:00:03.4411Z Run ./deploy.sh\n2026-12-01T08:00:03.4412Z   TOKEN: ***\n2026-12-01T08:00:05.1021Z Deployed with token ***")
    B("masked_value", f"API keys\nNAME        SECRET KEY        CREATED\nprod-bot    sk-...{rs(ALNUM, 4)}          Nov 3, 2026")
    B("masked_value", f"卡号：**** **** **** {rs(DG, 4)}，已绑定微信支付。", "zh")
    B("masked_value", f"手机号 138****{rs(DG, 4)} 已验证", "zh")
    B("masked_value", f"身份证号 110105********{rs(DG, 3)}X（已脱敏）", "zh")
    B("masked_value", "$ kubectl describe secret pg-credentials\nName:         pg-credentials\nType:  Opaque\n\nData\n====\npassword:  24 bytes\nusername:  8 bytes")
    B("masked_value", "Login attempt: user=mkowalski pass=•••••••••• result=OK")
    B("masked_value", f"Your IBAN ending in {rs(DG, 4)} will be debited on 5 December.")
    B("masked_value", "CircleCI: Environment variable SNOWFLAKE_PASSWORD = xxxx4f2a (value hidden)")

    # --- git commit SHAs
    for t in [
        "$ git log --oneline -3\n{s7} (HEAD -> main, origin/main) fix(auth): refresh token race\n{s7b} chore: bump deps\n{s7c} docs: update README",
        "$ git rev-parse HEAD\n{s40}",
        "Merge pull request #4821 from acme/feature/retry\n\ncommit {s40}\nMerge: {s7} {s7b}",
        "require github.com/acme/kit v0.0.0-20261130094512-{s12}",
        "Reverted in {s40} because the migration locked the orders table.",
        "CI run for {s40} on branch release/2.8 — 214 tests passed",
        "コミット {s7} でビルドが壊れました。{s7b} に戻して確認してください。",
        "- uses: actions/checkout@{s40} # v4.2.2",
    ]:
        B("git_sha", t.format(s7=rs(HEX, 7), s7b=rs(HEX, 7), s7c=rs(HEX, 7), s12=rs(HEX, 12), s40=rs(HEX, 40)),
          "ja" if "コミット" in t else None)

    # --- request ids, trace ids
    B("uuid_request_id", f"HTTP/1.1 500 Internal Server Error\nx-request-id: {uuid4()}\ncontent-type: application/json")
    B("uuid_request_id", f"An error occurred (AccessDenied) when calling the PutObject operation: Access Denied (RequestId: {rs(UPNUM, 16)}, HostId: {rs(B64, 76)})")
    B("uuid_request_id", f"traceparent: 00-{rs(HEX, 32)}-{rs(HEX, 16)}-01")
    B("uuid_request_id", f"metadata:\n  name: web-7d9f8c6b5-x2kqp\n  uid: {uuid4()}\n  resourceVersion: \"48211093\"")
    B("uuid_request_id", f"Correlation ID: {uuid4()}\nTimestamp: 2026-12-01 10:22:33Z\nAADSTS50076: Due to a configuration change made by your administrator...")
    B("uuid_request_id", f"Sentry event {rs(HEX, 32)} grouped into issue ACME-WEB-3KZ")
    B("uuid_request_id", f"请求失败，请把请求 ID {uuid4()} 发给技术支持。", "zh")
    B("uuid_request_id", f"Idempotency-Key: {uuid4()}")

    # --- content hashes
    B("content_hash", f"$ sha256sum acme-cli_2.3.0_linux_amd64.tar.gz\n{rs(HEX, 64)}  acme-cli_2.3.0_linux_amd64.tar.gz")
    B("content_hash", f"FROM python:3.12-slim@sha256:{rs(HEX, 64)}")
    B("content_hash", f"\"node_modules/lodash\": {{\n  \"version\": \"4.17.21\",\n  \"resolved\": \"https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz\",\n  \"integrity\": \"sha512-{b64(rbytes(64))}\"\n}}")
    B("content_hash", f"requests==2.32.3 \\\n    --hash=sha256:{rs(HEX, 64)} \\\n    --hash=sha256:{rs(HEX, 64)}")
    B("content_hash", f"golang.org/x/net v0.31.0 h1:{b64(rbytes(32))}\ngolang.org/x/net v0.31.0/go.mod h1:{b64(rbytes(32))}")
    B("content_hash", f"[[package]]\nname = \"serde\"\nversion = \"1.0.215\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"{rs(HEX, 64)}\"")
    B("content_hash", f"version https://git-lfs.github.com/spec/v1\noid sha256:{rs(HEX, 64)}\nsize 48213377")
    B("content_hash", f"<script src=\"https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/js/bootstrap.bundle.min.js\" integrity=\"sha384-{b64(rbytes(48))}\" crossorigin=\"anonymous\"></script>")
    B("content_hash", f"< ETag: \"{rs(HEX, 32)}\"\n< Content-Length: 10482")
    B("content_hash", f"文件校验：MD5 {rs(HEX, 32)}，SHA-1 {rs(HEX, 40)}，下载后请核对。", "zh")

    # --- base64 of ordinary data
    B("base64_data", f"binaryData:\n  logo.png: iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAA{rs(B64, 60)}")
    B("base64_data", f"$ echo '{b64(json.dumps({'theme': 'dark', 'lang': 'de', 'beta': False}))}' | base64 -d\n{{\"theme\": \"dark\", \"lang\": \"de\", \"beta\": false}}")
    B("base64_data", f"<img src=\"data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==\" alt=\"\">")
    B("base64_data", f"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n{b64('Hallo Team, anbei der Bericht für November. Viele Grüße')}")
    B("base64_data", f"kafka-console-consumer output: value={b64(json.dumps({'event': 'order_created', 'order_id': 88121, 'total': 49.9}))}")
    B("base64_data", f"cursor={b64(json.dumps({'last_id': 48211, 'ts': '2026-12-01'}))}&limit=50")
    B("base64_data", f"JWT header only, no payload or signature: {b64u(json.dumps({'alg': 'RS256', 'typ': 'JWT'}))}")

    # --- public keys
    B("public_key", f"$ cat ~/.ssh/authorized_keys\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(B64, 43)} mlin@laptop")
    B("public_key", f"github.com ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{rs(B64, 500)}")
    B("public_key", f"[Peer]\nPublicKey = {b64(rbytes(32))}\nAllowedIPs = 10.8.0.3/32")
    B("public_key", f"recipients:\n  - age1{rs(BECH32, 58)}\n  - age1{rs(BECH32, 58)}")
    B("public_key", f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGc{rs(B64, 57)}\n{rs(B64, 64)}\n{rs(B64, 64)}\n={rs(B64, 4)}\n-----END PGP PUBLIC KEY BLOCK-----")
    B("public_key", f"minisign public key: RW{rs(B64, 54)}")
    B("public_key", f"GPG 指纹：{' '.join(rs(HEXU, 4) for _ in range(10))}，请核对后再导入。", "zh")
    B("public_key", f"公開鍵をサーバーに登録してください：ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(B64, 43)} tanaka@mac", "ja")

    # --- certificates and public PEM
    B("certificate_or_public_pem", f"-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE{rs(B64, 44)}\n{rs(B64, 64)}\n{rs(B64, 64)}\n-----END CERTIFICATE-----")
    B("certificate_or_public_pem", f"-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE{rs(B64, 28)}\n{rs(B64, 24)}==\n-----END PUBLIC KEY-----")
    B("certificate_or_public_pem", f"-----BEGIN CERTIFICATE REQUEST-----\nMIICijCCAXICAQAwRTELMAkGA1UEBhMCREUx{rs(B64, 28)}\n{rs(B64, 64)}\n-----END CERTIFICATE REQUEST-----")
    B("certificate_or_public_pem", f"clusters:\n- cluster:\n    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1J{rs(B64, 120)}\n    server: https://127.0.0.1:6443\n  name: kind-dev")
    B("certificate_or_public_pem", f"SHA256 Fingerprint={':'.join(rs(HEXU, 2) for _ in range(32))}")
    B("certificate_or_public_pem", f"Le certificat public de l'IdP (à coller dans la config SAML) :\n<ds:X509Certificate>MIIC8DCCAdigAwIBAgIQ{rs(B64, 120)}</ds:X509Certificate>", "fr")

    # --- password hashes
    bc = lambda: "$2b$12$" + rs(ALNUM + "./", 53)
    B("password_hash", f"INSERT INTO users (email, password_hash) VALUES ('seed@example.com', '{bc()}');")
    B("password_hash", f"$argon2id$v=19$m=65536,t=3,p=4${rs(B64, 22)}${rs(B64, 43)}")
    B("password_hash", f"deploy:$6${rs(ALNUM + './', 16)}${rs(ALNUM + './', 86)}:20058:0:99999:7:::")
    B("password_hash", f"pbkdf2_sha256$870000${rs(ALNUM, 22)}${b64(rbytes(32))}")
    B("password_hash", f"grafana:$apr1${rs(ALNUM + './', 8)}${rs(ALNUM + './', 22)}")
    B("password_hash", f"mysql> SELECT user, authentication_string FROM mysql.user WHERE user='app';\n| app  | *{rs(HEXU, 40)} |")
    B("password_hash", f"用户表里存的是 bcrypt 哈希，比如 {bc()}，不是明文密码。", "zh")

    # --- publishable keys and public client ids
    B("publishable_key", f"<script>const stripe = Stripe('pk_live_{rs(ALNUM, 99)}');</script>")
    B("publishable_key", f"const searchClient = algoliasearch('{rs(UPNUM, 10)}', '{rs(HEX, 32)}'); // search-only key, safe in the browser")
    B("publishable_key", f"<div class=\"g-recaptcha\" data-sitekey=\"6L{rs(B64URL, 38)}\"></div>")
    B("publishable_key", f"posthog.init('phc_{rs(ALNUM, 43)}', {{ api_host: 'https://eu.i.posthog.com' }})")
    B("publishable_key", f"mapboxgl.accessToken = 'pk.eyJ1IjoiYWNtZS1tYXBzIiwiYSI6I{rs(B64URL, 40)}.{rs(B64URL, 22)}';")
    B("publishable_key", f"Sentry.init({{ dsn: \"https://{rs(HEX, 32)}@o{R.randint(10**5, 10**6)}.ingest.de.sentry.io/{R.randint(10**6, 10**7)}\" }}); // browser DSN, public by design")
    B("publishable_key", f"NEXT_PUBLIC_SUPABASE_ANON_KEY={jwt({'iss': 'supabase', 'ref': rs(LO, 20), 'role': 'anon', 'iat': 1730000000, 'exp': 2045576000}, alg='HS256', sig_bytes=32)}")
    B("publishable_key", f"const firebaseConfig = {{ apiKey: \"AIza{rs(B64URL, 35)}\", authDomain: \"acme-app.firebaseapp.com\", projectId: \"acme-app\" }};")
    B("public_client_id", f"GOOGLE_CLIENT_ID={R.randint(10**11, 10**12)}-{rs(LOWNUM, 32)}.apps.googleusercontent.com")
    B("public_client_id", f"GitHub App \"acme-ci\": App ID {R.randint(10**5, 10**6)}, Client ID Iv23li{rs(ALNUM, 14)}")
    B("public_client_id", f"Application (client) ID: {uuid4()}\nDirectory (tenant) ID: {uuid4()}")
    B("public_client_id", f"aws_cognito_user_pool_id = \"eu-west-1_{rs(ALNUM, 9)}\"\naws_user_pools_web_client_id = \"{rs(LOWNUM, 26)}\"")
    B("public_client_id", f"okta.client_id=0oa{rs(ALNUM, 17)}")
    B("public_client_id", f"Slack app Client ID: {R.randint(10**11, 10**12)}.{R.randint(10**12, 10**13)}")

    # --- versions and builds
    for t, lang in [
        ("Bumped acme-sdk from 4.17.3 to 4.18.0-rc.2+build.4821", None),
        ("Chrome 131.0.6778.86 (Official Build) (arm64)", None),
        ("image: nginx:1.27.3-alpine3.20", None),
        ("OS Build 10.0.26100.2314, Version 24H2", None),
        ("android {\n  defaultConfig {\n    versionCode 2026120108\n    versionName \"7.2.0\"\n  }\n}", None),
        ("本次发布版本 v3.14.159-hotfix.2，构建号 #20261201.7", "zh"),
        ("torch-2.5.1+cu124-cp312-cp312-linux_x86_64.whl", None),
    ]:
        B("version_build", t, lang)

    # --- orders, tracking and invoice numbers
    B("order_tracking", f"Your order #{R.randint(100, 999)}-{rs(DG, 7)}-{rs(DG, 7)} has shipped.")
    B("order_tracking", f"UPS tracking: 1Z{rs(UPNUM, 6)}{rs(DG, 10)}")
    B("order_tracking", f"顺丰单号 SF{rs(DG, 13)}，预计明天送达。", "zh")
    B("order_tracking", f"EMS 追跡番号：E{pick(UP)}{rs(DG, 9)}JP", "ja")
    B("order_tracking", f"DHL Sendungsnummer: {rs(DG, 10)} – Zustellung Mittwoch.", "de")
    B("order_tracking", f"Invoice INV-2026-{rs(DG, 6)} is due on 2026-12-31.")
    B("order_tracking", f"Número de pedido: PED-{rs(DG, 8)} — entrega em 3 dias úteis.", "pt")
    B("order_tracking", f"Ticket JIRA OPS-{R.randint(1000, 99999)} and incident INC{rs(DG, 7)} are linked.")

    # --- timestamps and numeric ids
    B("timestamp_numeric", f"{{\"created_at\": {R.randint(1760000000000, 1780000000000)}, \"updated_at\": \"2026-12-01T10:22:33.481Z\"}}")
    B("timestamp_numeric", f"Discord message id {R.randint(10**18, 2 * 10**18)} in channel {R.randint(10**18, 2 * 10**18)}")
    B("timestamp_numeric", f"ts={R.randint(10**18, 2 * 10**18)} level=info msg=\"compaction done\" blocks=12")
    B("timestamp_numeric", f"http_requests_total{{code=\"200\",handler=\"/api\"}} {R.randint(10**8, 10**10)} {R.randint(1760000000000, 1780000000000)}")
    B("timestamp_numeric", f"Snowflake query id 01b{rs(HEX, 5)}-0000-{rs(HEX, 4)}-0000-{rs(HEX, 12)} finished in 4.2s")
    B("timestamp_numeric", f"日志时间戳 {R.randint(1760000000, 1780000000)}，对应北京时间 2026-12-01 18:22:33。", "zh")

    # --- numbers that fail their check digit
    for lang, tmpl in [(None, "Card declined: {v} (invalid number)"), ("zh", "卡号 {v} 校验失败，请重新输入。"), ("de", "Kartennummer {v} ist ungültig (Prüfziffer).")]:
        v = break_last(grp(card("4" if lang != "zh" else "62", 16), [4, 4, 4, 4]))
        B("number_failing_check", tmpl.format(v=v), lang, ("luhn", v))
    v = break_last(cn_id())
    B("number_failing_check", f"身份证号 {v} 校验位不对，系统拒绝。", "zh", ("cn_id", v))
    v = cn_id()
    v = v[:17] + pick([c for c in "0123456789X" if c != v[17]])
    B("number_failing_check", f"test fixture invalid_id = \"{v}\"  # wrong check character on purpose", None, ("cn_id", v))
    v = break_last(iban("DE", spaced=True))
    B("number_failing_check", f"IBAN {v} wurde abgelehnt: Prüfsumme falsch.", "de", ("iban", v))
    v = iban("FR")
    v = v[:2] + f"{(int(v[2:4]) + R.randint(1, 50)) % 97 + 2:02d}" + v[4:]
    B("number_failing_check", f"IBAN invalide : {v}", "fr", ("iban", v))
    v = break_last(cpf())
    B("number_failing_check", f"CPF {v} inválido (dígitos verificadores não conferem).", "pt", ("cpf", v))
    v = break_last(aadhaar())
    B("number_failing_check", f"Aadhaar {v} failed Verhoeff validation in the form.", None, ("verhoeff", v))
    v = break_last(sin())
    B("number_failing_check", f"SIN {v[:3]}-{v[3:6]}-{v[6:]} rejected by the payroll validator.", None, ("luhn", v))
    v = nric()
    v = v[:8] + pick([c for c in "JZIHGFEDCBA" if c != v[8]])
    B("number_failing_check", f"NRIC {v}: checksum mismatch", None, ("nric", v))
    l, d, c = hkid_parts()
    c2 = pick([x for x in "0123456789A" if x != c])
    v = f"{l}{d}({c2})"
    B("number_failing_check", f"身份證號碼 {v} 核對碼錯誤。", "zh-Hant", ("hkid", v))
    v = break_last(bsn())
    B("number_failing_check", f"BSN {v} voldoet niet aan de elfproef.", "nl", ("bsn", v))
    v = break_last(mynumber())
    B("number_failing_check", f"個人番号 {v[:4]} {v[4:8]} {v[8:]} はチェックデジットが一致しません。", "ja", ("mynumber", v))
    v = break_last(kr_rrn())
    B("number_failing_check", f"주민등록번호 {v} 형식 오류 (검증 실패)", "ko", ("kr_rrn", v))
    v = break_last(pesel())
    B("number_failing_check", f"Błędny PESEL: {v}", "pl", ("pesel", v))
    v = break_last(de_taxid())
    B("number_failing_check", f"Steuer-ID {v} ist laut ELSTER nicht gültig.", "de", ("de_taxid", v))
    v = es_dni()
    v = v[:8] + pick([c for c in DNI_L if c != v[8]])
    B("number_failing_check", f"El DNI {v} no es válido: la letra no corresponde.", "es", ("es_dni", v))
    v = tw_id()
    v = break_last(v)
    B("number_failing_check", f"身分證字號 {v} 檢查碼錯誤", "zh-Hant", ("tw_id", v))
    v = it_cf()
    v = v[:15] + pick([c for c in UP if c != v[15]])
    B("number_failing_check", f"Codice fiscale {v} non valido (carattere di controllo errato).", "it", ("it_cf", v))

    # --- IP addresses of public services and documentation ranges
    B("ip_address", "nameserver 8.8.8.8\nnameserver 1.1.1.1\noptions edns0")
    B("ip_address", "$ dig @9.9.9.9 acme.io +short\n203.0.113.42")
    B("ip_address", "国内服务器把 DNS 改成 223.5.5.5 和 114.114.114.114 就快了。", "zh")
    B("ip_address", "upstream resolvers: 208.67.222.222, 208.67.220.220 (OpenDNS)")
    B("ip_address", "Example from RFC 5737: 192.0.2.10 talks to 198.51.100.7; IPv6 docs use 2001:db8::1.")
    B("ip_address", "listen 127.0.0.1:8080;\nallow 10.0.0.0/8;\ndeny all;")

    # --- local DSNs without a password
    B("localhost_dsn_no_password", "DATABASE_URL=postgres://localhost:5432/app_dev")
    B("localhost_dsn_no_password", "REDIS_URL=redis://127.0.0.1:6379/0")
    B("localhost_dsn_no_password", "mongosh \"mongodb://localhost:27017/test\"")
    B("localhost_dsn_no_password", "SQLALCHEMY_DATABASE_URI = 'sqlite:///./instance/app.db'")
    B("localhost_dsn_no_password", "spring.datasource.url=jdbc:h2:mem:testdb;DB_CLOSE_DELAY=-1")
    B("localhost_dsn_no_password", "mysql://root@localhost:3306/test  (no password in the dev container)")
    B("localhost_dsn_no_password", "本地开发用 postgresql://postgres@localhost/dev，不需要密码（trust 认证）。", "zh")

    # --- example emails
    B("example_email", "git config --global user.email \"you@example.com\"")
    B("example_email", "Send a test to alice@example.org and bob@example.net before the real campaign.")
    B("example_email", "admin@localhost is the default sender in the dev profile.")
    B("example_email", "Beispiel: max.mustermann@example.de (Platzhalter im Formular)", "de")
    B("example_email", "mailto:test@test.invalid — RFC 2606 reserves .invalid for exactly this.")
    B("example_email", "jane [at] example [dot] com is how the docs write an obfuscated address.")
    B("example_email", "示例邮箱 user@example.com 仅用于文档。", "zh")

    # --- numbers with the shape of a phone number that are not phones
    def isbn13():
        d12 = "978" + rs(DG, 9)
        d = d12 + ean13_digit(d12)
        return f"{d[:3]}-{d[3]}-{d[4:7]}-{d[7:12]}-{d[12]}"
    B("phone_like_number", f"ISBN {isbn13()}，人民邮电出版社，2026 年 3 月第 1 版", "zh")
    B("phone_like_number", f"ISBN {isbn13()} (paperback)")
    B("phone_like_number", f"Rechnungsnummer 2026{rs(DG, 7)} vom 01.12.2026", "de")
    d12 = "40" + rs(DG, 10)
    B("phone_like_number", f"EAN {d12 + ean13_digit(d12)} — Karton à 12 Stück", "de")
    B("phone_like_number", f"HS code 8471.30.01 00 for laptops; CAS 7732-18-5 is water.")
    B("phone_like_number", f"专利申请号 CN 2026 1 {rs(DG, 7)}.{R.randint(0, 9)}", "zh")
    B("phone_like_number", f"doi:10.1145/{rs(DG, 7)}.{rs(DG, 7)}")
    B("phone_like_number", f"Kundennummer 0{rs(DG, 3)} {rs(DG, 7)} bitte bei Rückfragen angeben.", "de")
    B("phone_like_number", f"Model number 138-{rs(DG, 4)}-{rs(DG, 4)}-B (replacement fan for the rack unit)")

    # --- discussing passwords without giving one
    for t, lang in [
        ("请把密码存到 Vault 里，不要放在代码仓库。", "zh"),
        ("密码我会通过企业微信单独发你，这里就不贴了。", "zh"),
        ("忘记密码？点击“找回密码”，验证码会发送到绑定的手机。", "zh"),
        ("密碼請至少 12 個字元，並包含大小寫字母與數字。", "zh-Hant"),
        ("パスワードは後で別の経路で送ります。", "ja"),
        ("비밀번호는 메신저로 보내지 마시고 1Password 공유 볼트를 이용해 주세요.", "ko"),
        ("Bitte schick Passwörter nie per E-Mail, sondern über den Passwortmanager.", "de"),
        ("Le mot de passe doit être changé tous les 90 jours.", "fr"),
        ("La contraseña temporal caduca en 24 horas; cámbiala al iniciar sesión.", "es"),
        ("A senha não será exibida novamente, guarde-a em local seguro.", "pt"),
        ("Пароль должен содержать не менее 12 символов.", "ru"),
        ("Ho reimpostato la password, ti arriva il link via email.", "it"),
        ("Mật khẩu phải có ít nhất 8 ký tự.", "vi"),
        ("กรุณาอย่าแชร์รหัสผ่านของคุณกับผู้อื่น", "th"),
        ("لا تشارك كلمة المرور مع أي شخص", "ar"),
        ("Şifrenizi kimseyle paylaşmayın.", "tr"),
        ("Kata sandi disimpan di brankas tim, minta akses ke admin.", "id"),
        ("Hasło zostało zmienione pomyślnie.", "pl"),
        ("Het wachtwoord staat in de kluis van het team.", "nl"),
        ("The password policy requires 14 characters, MFA, and rotation every 180 days.", None),
        ("Your password reset token expires in 15 minutes.", None),
    ]:
        B("password_discussion", t, lang)

    # --- key names without a value
    for t in [
        "password:\nusername: admin\nhost: db.internal",
        "db_password = \"\"\napi_key = \"\"",
        "PASSWORD_MIN_LENGTH=12\nPASSWORD_REQUIRE_SYMBOL=true\nTOKEN_TTL_SECONDS=3600",
        "token_endpoint: https://auth.acme.io/oauth2/token\nauthorization_endpoint: https://auth.acme.io/oauth2/authorize",
        "{\"apiKey\": null, \"secret\": null, \"enabled\": false}",
        "auth_type = password\npassword_file = /etc/acme/db.pass",
        "AWS_SECRET_ACCESS_KEY=\nAWS_ACCESS_KEY_ID=",
        "def get_password_hash(password: str) -> str:\n    return pwd_context.hash(password)",
        "class PasswordResetTokenGenerator:\n    key_salt = \"django.contrib.auth.tokens.PasswordResetTokenGenerator\"",
    ]:
        B("config_key_name_only", t)

    # --- random-looking ids that are not secrets
    B("random_looking_id", f"$ docker ps\nCONTAINER ID   IMAGE          STATUS\n{rs(HEX, 12)}   redis:7.4      Up 3 hours\n$ docker inspect --format '{{{{.Id}}}}' redis\n{rs(HEX, 64)}")
    B("random_looking_id", f"Stripe objects: customer cus_{rs(ALNUM, 14)}, payment intent pi_{rs(ALNUM, 24)}, charge ch_{rs(ALNUM, 24)}")
    B("random_looking_id", f"arn:aws:iam::{rs(DG, 12)}:role/service-role/lambda-exec-{rs(LOWNUM, 8)}")
    B("random_looking_id", f"Launching ami-0{rs(HEX, 16)} as i-0{rs(HEX, 16)} in subnet-0{rs(HEX, 16)}")
    B("random_looking_id", f"db.orders.find({{_id: ObjectId(\"{rs(HEX, 24)}\")}})")
    B("random_looking_id", f"Slack channel C0{rs(UPNUM, 9)}, user U0{rs(UPNUM, 9)}, team T0{rs(UPNUM, 9)}")
    B("random_looking_id", f"https://www.youtube.com/watch?v={rs(B64URL, 11)}")
    B("random_looking_id", f"ULID {rs('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 26)} assigned to the upload")
    B("random_looking_id", f"s3://acme-raw/events/2026/12/01/part-00000-{uuid4()}.c000.snappy.parquet")
    B("random_looking_id", f"Pod {pick(['api', 'worker', 'web'])}-{rs(LOWNUM, 10)}-{rs(LOWNUM, 5)} restarted 3 times")
    B("random_looking_id", f"Firebase push id -N{rs(B64URL, 18)} written under /messages")
    B("random_looking_id", f"工作流运行 ID {R.randint(10**10, 10**11)}，制品 artifact-{rs(HEX, 8)}.zip", "zh")

    # --- documented default credentials (a cautious redactor may remove them)
    B("default_password_doc", "Grafana's default login is admin / admin; you are asked to change it on first login.")
    B("default_password_doc", "RabbitMQ ships with the user guest/guest, which can only connect from localhost.")
    B("default_password_doc", "MinIO 默认账号 minioadmin，密码也是 minioadmin，生产环境务必修改。", "zh")
    B("default_password_doc", "Jenkins prints the initial admin password to /var/jenkins_home/secrets/initialAdminPassword.")
    B("default_password_doc", "Set the password to changeme in the example .env and let the installer replace it.")
    B("default_password_doc", "Das Standardpasswort der Fritzbox steht auf der Unterseite des Geräts.", "de")

    # --- public blockchain data
    B("blockchain_public", f"Tx hash: 0x{rs(HEX, 64)} (confirmed, block 21{rs(DG, 6)})")
    B("blockchain_public", f"Send the refund to 0x{rs(HEX, 40)} on Arbitrum.")
    B("blockchain_public", f"BTC address bc1q{rs(BECH32, 38)}")
    B("blockchain_public", f"ipfs://bafybei{rs('abcdefghijklmnopqrstuvwxyz234567', 52)}")
    B("blockchain_public", f"Solana mint address: {rs('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 44)}")

    # --- references to secret stores
    B("secret_reference", "vault kv get -field=password secret/payments/db")
    B("secret_reference", f"arn:aws:secretsmanager:eu-central-1:{rs(DG, 12)}:secret:prod/orders/db-{rs(ALNUM, 6)}")
    B("secret_reference", "https://kv-acme-prod.vault.azure.net/secrets/SqlPassword/")
    B("secret_reference", f"projects/{R.randint(10**11, 10**12)}/secrets/stripe-api-key/versions/latest")
    B("secret_reference", "op read \"op://Engineering/Staging DB/password\"")
    B("secret_reference", "密钥放在 KMS 里，别名 alias/app-prod，应用启动时拉取。", "zh")

    # --- detection rules and tooling output about secrets
    B("rule_or_tooling", "[[rules]]\nid = \"aws-access-key\"\nregex = '''(A3T[A-Z0-9]|AKIA|ASIA)[A-Z0-9]{16}'''")
    B("rule_or_tooling", "中国大陆手机号正则：^1[3-9]\\d{9}$", "zh")
    B("rule_or_tooling", f"\"results\": {{\"config.py\": [{{\"type\": \"Secret Keyword\", \"hashed_secret\": \"{rs(HEX, 40)}\", \"is_verified\": false, \"line_number\": 12}}]}}")
    B("rule_or_tooling", "Found unverified result 🐷🔑❓\nDetector Type: Github\nRaw result: ghp_****\nFile: .github/workflows/ci.yml")
    B("rule_or_tooling", "IBAN regex: ^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$ — also check mod 97 before accepting.")

    # --- public business identifiers and hotlines (a cautious redactor may remove some)
    B("public_business_id", "统一社会信用代码：91110000MA01ABCD2X（营业执照公示信息）", "zh")
    B("public_business_id", f"VAT: DE {rs(DG, 3)} {rs(DG, 3)} {rs(DG, 3)} — printed on every invoice footer of Acme GmbH.")
    B("public_business_id", f"客服热线 400-{rs(DG, 3)}-{rs(DG, 4)}（工作日 9:00-18:00）", "zh")
    B("public_business_id", f"Acme Lumière SAS, société par actions simplifiée — RCS Lyon B {rs(DG, 3)} {rs(DG, 3)} {rs(DG, 3)}", "fr")


# =============================================================================================
# Validation and output
# =============================================================================================
CHECKED_SECRET_CATEGORIES = {
    "cn_resident_id", "hk_id", "tw_national_id", "jp_my_number", "kr_rrn", "us_ssn", "us_itin",
    "ca_sin", "de_steuer_id", "de_personalausweis", "fr_nir", "es_dni", "es_nie",
    "it_codice_fiscale", "nl_bsn", "be_national_number", "pl_pesel", "pt_nif", "se_personnummer",
    "fi_hetu", "dk_cpr", "no_fodselsnummer", "at_svnr", "ch_ahv", "ie_pps", "br_cpf", "br_cnpj",
    "mx_curp", "in_aadhaar", "sg_nric", "passport_mrz",
}


# Published examples of each scheme: the validators must accept them.
PUBLISHED_EXAMPLES = [
    ("cn_id", "11010519491231002X"), ("hkid", "A123456(3)"), ("tw_id", "A123456789"),
    ("mynumber", "123456789018"), ("luhn", "046 454 286"), ("de_taxid", "86095742719"),
    ("es_dni", "12345678Z"), ("it_cf", "RSSMRA85T10A562S"), ("bsn", "111222333"),
    ("be_nrn", "85.07.30-033.28"), ("pesel", "44051401359"), ("pt_nif", "123456789"),
    ("fi_hetu", "131052-308T"), ("dk_cpr", "070761-4285"), ("at_svnr", "1237 010180"),
    ("ean13", "756.9217.0769.85"), ("ie_pps", "1234567T"), ("cpf", "111.444.777-35"),
    ("cnpj", "11.222.333/0001-81"), ("curp", "HEGG560427MVZRRL04"), ("verhoeff", "2363"),
    ("nric", "S1234567D"), ("mrz", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"),
    ("iban", "GB82WEST12345698765432"), ("iban", "DE89370400440532013000"),
    ("iban", "FR1420041010050500013M02606"), ("iban", "BE68539007547034"),
]


def validate():
    for algo, value in PUBLISHED_EXAMPLES:
        assert VALIDATORS[algo](value), ("published example rejected", algo, value)
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    checked = {cid for cid, _, _, _ in CHECKS}
    for c in CASES:
        assert set(c) <= {"id", "kind", "category", "family", "text", "secret", "lang"}, c["id"]
        assert c["kind"] in ("secret", "benign"), c["id"]
        if c["kind"] == "secret":
            assert c["family"] in FAMILIES, c["id"]
            assert c["id"].startswith("s-") and c["secret"] and c["secret"] in c["text"], c["id"]
            if c["category"] in CHECKED_SECRET_CATEGORIES or c["category"].startswith(("card_", "iban_")):
                assert c["id"] in checked, ("secret without check", c["id"])
        else:
            assert c["family"] == "benign" and "secret" not in c and c["id"].startswith("b-"), c["id"]
            if c["category"] == "number_failing_check":
                assert c["id"] in checked, ("look-alike without check", c["id"])
        if "lang" in c:
            assert c["lang"] in LANGS, c["id"]
    for cid, algo, value, expected in CHECKS:
        case = next(c for c in CASES if c["id"] == cid)
        assert value in case["text"] or digits_only(value) in digits_only(case["text"]), (cid, value)
        got = VALIDATORS[algo](value)
        assert got == expected, (cid, algo, value, "valid" if got else "invalid")


def main():
    cloud()
    tokens()
    passwords()
    network()
    paths()
    dsns()
    https()
    pems()
    contacts()
    national_ids()
    financials()
    benign()
    validate()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "blind4.jsonl")
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for c in CASES:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    secrets = [c for c in CASES if c["kind"] == "secret"]
    benigns = [c for c in CASES if c["kind"] == "benign"]
    fam, lang = {}, {}
    for c in CASES:
        k = c["family"]
        fam[k] = fam.get(k, 0) + 1
        lk = (c["kind"], c.get("lang", "en"))
        lang[lk] = lang.get(lk, 0) + 1
    print(f"wrote {out}: {len(secrets)} secrets in {len({c['category'] for c in secrets})} categories, "
          f"{len(benigns)} benign in {len({c['category'] for c in benigns})} categories, {len(CHECKS)} check digits verified")
    print("by family:", ", ".join(f"{k} {v}" for k, v in sorted(fam.items(), key=lambda kv: (-kv[1], kv[0]))))
    for kind in ("secret", "benign"):
        row = sorted(((l, n) for (k, l), n in lang.items() if k == kind), key=lambda kv: (-kv[1], kv[0]))
        print(f"{kind} by lang:", ", ".join(f"{l} {n}" for l, n in row))


if __name__ == "__main__":
    main()
