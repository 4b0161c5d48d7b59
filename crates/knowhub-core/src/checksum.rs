//! Check digits of numbers that redaction must tell from look-alikes: payment cards (Luhn), IBANs
//! (ISO 13616 mod 97), Chinese, Hong Kong, Taiwanese, Japanese and Korean identity numbers, US
//! social security numbers and UK National Insurance numbers (format rules only: neither has a
//! check digit), and the base64 `user:password` of a Docker `auth` entry. A number that fails its
//! check is kept: a random 18-digit order number passes the Chinese check one time in eleven, not
//! every time. The TypeScript twin is in `plugins/openclaw/src/security.ts`.

/// The ASCII digits and letters of `s`, separators (spaces, dashes, brackets) dropped.
fn alnum(s: &str) -> Vec<u8> {
    s.bytes().filter(u8::is_ascii_alphanumeric).map(|b| b.to_ascii_uppercase()).collect()
}

fn digit(b: u8) -> u32 {
    u32::from(b - b'0')
}

/// The sum of the ASCII digits `b` times the weights `w`, pairwise (as far as the shorter goes).
fn weighted(b: &[u8], w: &[u32]) -> u32 {
    b.iter().zip(w).map(|(d, w)| digit(*d) * w).sum()
}

/// Whether `dd`/`mm` can be a day and a month.
fn day_month(dd: u32, mm: u32) -> bool {
    (1..=31).contains(&dd) && (1..=12).contains(&mm)
}

/// The number the ASCII digits `b` spell.
fn number(b: &[u8]) -> u64 {
    b.iter().fold(0, |a, d| a * 10 + u64::from(digit(*d)))
}

/// `b` is all ASCII digits and `n` long.
fn digits_of(b: &[u8], n: usize) -> bool {
    b.len() == n && b.iter().all(u8::is_ascii_digit)
}

/// Luhn checksum over digits (numeric values, not ASCII).
pub fn luhn(digits: &[u8]) -> bool {
    let mut sum = 0;
    for (i, d) in digits.iter().rev().enumerate() {
        let mut v = u32::from(*d);
        if i % 2 == 1 {
            v *= 2;
            if v > 9 {
                v -= 9;
            }
        }
        sum += v;
    }
    sum % 10 == 0
}

/// A Chinese resident identity number (separators allowed): a plausible birth date and the
/// ISO 7064 MOD 11-2 check character.
pub fn cn_resident_id(s: &str) -> bool {
    const W: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    let b = alnum(s);
    if b.len() != 18 || !digits_of(&b[..17], 17) {
        return false;
    }
    let year = number(&b[6..10]);
    if !(1900..=2099).contains(&year) || !day_month(number(&b[12..14]) as u32, number(&b[10..12]) as u32) {
        return false;
    }
    b"10X98765432"[(weighted(&b[..17], &W) % 11) as usize] == b[17]
}

/// A Hong Kong identity card number, `A123456(3)` or `AB123456(9)`: the mod 11 check character
/// (`A` stands for 10).
pub fn hkid(s: &str) -> bool {
    let b = alnum(s);
    let letters = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    if !(1..=2).contains(&letters) || b.len() != letters + 7 || !b[letters..letters + 6].iter().all(u8::is_ascii_digit)
    {
        return false;
    }
    let letter = |c: u8| u32::from(c - b'A') + 10;
    let mut sum = if letters == 1 { 36 * 9 + letter(b[0]) * 8 } else { letter(b[0]) * 9 + letter(b[1]) * 8 };
    for (i, d) in b[letters..letters + 6].iter().enumerate() {
        sum += digit(*d) * (7 - i as u32);
    }
    let check = (11 - sum % 11) % 11;
    let want = match check {
        10 => b'A',
        c => b'0' + c as u8,
    };
    b[letters + 6] == want
}

/// A Taiwanese national identification (or new-style resident) number, `A123456789`: the letter's
/// two-digit code and the nine digits, weighted, sum to a multiple of ten.
pub fn tw_id(s: &str) -> bool {
    const CODES: &[u8; 26] =
        &[10, 11, 12, 13, 14, 15, 16, 17, 34, 18, 19, 20, 21, 22, 35, 23, 24, 25, 26, 27, 28, 29, 32, 30, 31, 33];
    let b = alnum(s);
    if b.len() != 10 || !b[0].is_ascii_uppercase() || !b[1..].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let code = u32::from(CODES[(b[0] - b'A') as usize]);
    let mut sum = code / 10 + (code % 10) * 9;
    for (i, d) in b[1..].iter().enumerate() {
        sum += digit(*d) * if i < 8 { 8 - i as u32 } else { 1 };
    }
    sum % 10 == 0
}

/// A Japanese individual number (My Number): twelve digits, the last a mod 11 check digit.
pub fn jp_my_number(s: &str) -> bool {
    let b = alnum(s);
    if !digits_of(&b, 12) {
        return false;
    }
    let sum: u32 = (1..=11u32).map(|n| digit(b[11 - n as usize]) * if n <= 6 { n + 1 } else { n - 5 }).sum();
    let r = sum % 11;
    let check = if r <= 1 { 0 } else { 11 - r };
    digit(b[11]) == check
}

/// A South Korean resident registration number, `YYMMDD-GNNNNNN`: the mod 11 check digit.
pub fn kr_rrn(s: &str) -> bool {
    const W: [u32; 12] = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
    let b = alnum(s);
    if !digits_of(&b, 13) {
        return false;
    }
    (11 - weighted(&b[..12], &W) % 11) % 10 == digit(b[12])
}

/// A US social security number that could be issued: area not 000, 666 or 9xx, group not 00,
/// serial not 0000.
pub fn us_ssn(s: &str) -> bool {
    let b = alnum(s);
    if !digits_of(&b, 9) {
        return false;
    }
    let area = &b[..3];
    area != b"000" && area != b"666" && area[0] != b'9' && &b[3..5] != b"00" && &b[5..] != b"0000"
}

/// IBAN lengths by country (ISO 13616 registry): a number of the wrong length is not an IBAN.
const IBAN_LENGTHS: &[(&str, usize)] = &[
    ("AD", 24),
    ("AE", 23),
    ("AL", 28),
    ("AT", 20),
    ("AZ", 28),
    ("BA", 20),
    ("BE", 16),
    ("BG", 22),
    ("BH", 22),
    ("BR", 29),
    ("CH", 21),
    ("CR", 22),
    ("CY", 28),
    ("CZ", 24),
    ("DE", 22),
    ("DK", 18),
    ("DO", 28),
    ("EE", 20),
    ("EG", 29),
    ("ES", 24),
    ("FI", 18),
    ("FO", 18),
    ("FR", 27),
    ("GB", 22),
    ("GE", 22),
    ("GI", 23),
    ("GL", 18),
    ("GR", 27),
    ("GT", 28),
    ("HR", 21),
    ("HU", 28),
    ("IE", 22),
    ("IL", 23),
    ("IS", 26),
    ("IT", 27),
    ("JO", 30),
    ("KW", 30),
    ("KZ", 20),
    ("LB", 28),
    ("LI", 21),
    ("LT", 20),
    ("LU", 20),
    ("LV", 21),
    ("MC", 27),
    ("MD", 24),
    ("ME", 22),
    ("MK", 19),
    ("MR", 27),
    ("MT", 31),
    ("MU", 30),
    ("NL", 18),
    ("NO", 15),
    ("PK", 24),
    ("PL", 28),
    ("PS", 29),
    ("PT", 25),
    ("QA", 29),
    ("RO", 24),
    ("RS", 22),
    ("SA", 24),
    ("SE", 24),
    ("SI", 19),
    ("SK", 24),
    ("SM", 27),
    ("TN", 24),
    ("TR", 26),
    ("UA", 29),
    ("VG", 24),
    ("XK", 20),
];

/// An IBAN (spaces allowed): the country's length and the mod 97 remainder 1.
pub fn iban(s: &str) -> bool {
    let b = alnum(s);
    let Some(&(_, len)) = IBAN_LENGTHS.iter().find(|(c, _)| b.len() >= 2 && c.as_bytes() == &b[..2]) else {
        return false;
    };
    if b.len() != len {
        return false;
    }
    let mut rem = 0u32;
    for c in b[4..].iter().chain(&b[..4]) {
        let v = if c.is_ascii_digit() { digit(*c) } else { u32::from(c - b'A') + 10 };
        rem = if v >= 10 { (rem * 100 + v) % 97 } else { (rem * 10 + v) % 97 };
    }
    rem == 1
}

/// Base64 of `user:password` (a Docker config `auth`, an HTTP basic credential).
pub fn base64_userpass(s: &str) -> bool {
    crate::normalize::decode_base64(s)
        .as_deref()
        .and_then(crate::normalize::printable_text)
        .and_then(|t| t.split_once(':').map(|(u, p)| !u.is_empty() && !p.is_empty()))
        .unwrap_or(false)
}

/// A UK National Insurance number, `AB123456C` or `AB 12 34 56 C`: two prefix letters, six digits
/// and a suffix A-D. There is no check digit, so the allocation rules do the work: neither prefix
/// letter is D, F, I, Q, U or V, the second is not O, and BG, GB, KN, NK, NT, TN and ZZ are never
/// issued.
pub fn uk_nino(s: &str) -> bool {
    let b = alnum(s);
    if b.len() != 9 || !b[2..8].iter().all(u8::is_ascii_digit) || !(b'A'..=b'D').contains(&b[8]) {
        return false;
    }
    let (p, q) = (b[0], b[1]);
    let letter_ok = |c: u8| c.is_ascii_uppercase() && !b"DFIQUV".contains(&c);
    letter_ok(p)
        && letter_ok(q)
        && q != b'O'
        && !["BG", "GB", "KN", "NK", "NT", "TN", "ZZ"].iter().any(|x| x.as_bytes() == &b[..2])
}

/// A Spanish DNI (`12345678Z`) or NIE (`X1234567L`, X/Y/Z standing for 0/1/2): the check letter
/// is the number mod 23 in the table `TRWAGMYFPDXBNJZSQVHLCKE`.
pub fn es_dni(s: &str) -> bool {
    let b = alnum(s);
    if b.len() != 9 || !b[1..8].iter().all(u8::is_ascii_digit) || !b[8].is_ascii_uppercase() {
        return false;
    }
    let lead = match b[0] {
        b'X' => 0,
        b'Y' => 1,
        b'Z' => 2,
        d if d.is_ascii_digit() => digit(d),
        _ => return false,
    };
    let n = b[1..8].iter().fold(lead, |a, d| a * 10 + digit(*d));
    b"TRWAGMYFPDXBNJZSQVHLCKE"[(n % 23) as usize] == b[8]
}

/// A French social security number (NIR), `1 84 12 76 451 089 46`: sex, year, a month that can
/// occur (01-12, or 20 and above for unknown months), department (Corsica `2A`/`2B` count as 19
/// and 18), and the key, 97 minus the first thirteen digits mod 97.
pub fn fr_nir(s: &str) -> bool {
    let b = alnum(s);
    if b.len() != 15 || !b"123478".contains(&b[0]) {
        return false;
    }
    let mut digits = b.clone();
    match &b[5..7] {
        b"2A" => digits[5..7].copy_from_slice(b"19"),
        b"2B" => digits[5..7].copy_from_slice(b"18"),
        _ => {}
    }
    if !digits.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let month = digit(digits[3]) * 10 + digit(digits[4]);
    if month == 0 || (13..20).contains(&month) {
        return false;
    }
    let n = digits[..13].iter().fold(0u64, |a, d| a * 10 + u64::from(digit(*d)));
    let key = u64::from(digit(digits[13]) * 10 + digit(digits[14]));
    key == 97 - n % 97
}

/// A Dutch citizen service number (BSN): nine digits passing the "eleven test" (weights 9 to 2,
/// the last digit weighted -1).
pub fn nl_bsn(s: &str) -> bool {
    let b = alnum(s);
    if !digits_of(&b, 9) {
        return false;
    }
    let sum: i64 = b[..8].iter().enumerate().map(|(i, d)| i64::from(digit(*d)) * (9 - i as i64)).sum::<i64>()
        - i64::from(digit(b[8]));
    sum > 0 && sum % 11 == 0
}

/// An Italian tax code (codice fiscale), `RSSMRA85T10A562S`: six letters, year, month letter,
/// day (plus 40 for women), place code and the check letter; digits may be replaced by the
/// letters `LMNPQRSTUV` where codes collide.
pub fn it_codice_fiscale(s: &str) -> bool {
    const ODD: [u32; 26] =
        [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
    let b = alnum(s);
    if b.len() != 16 {
        return false;
    }
    let subst = |c: u8| -> Option<u32> {
        if c.is_ascii_digit() {
            Some(digit(c))
        } else {
            b"LMNPQRSTUV".iter().position(|x| *x == c).map(|p| p as u32)
        }
    };
    let letters = [0, 1, 2, 3, 4, 5, 8, 11, 15];
    if !letters.iter().all(|&i| b[i].is_ascii_uppercase()) || !b"ABCDEHLMPRST".contains(&b[8]) {
        return false;
    }
    let numeric = [6, 7, 9, 10, 12, 13, 14];
    let Some(vals) = numeric.iter().map(|&i| subst(b[i])).collect::<Option<Vec<u32>>>() else {
        return false;
    };
    let day = vals[2] * 10 + vals[3];
    if !((1..=31).contains(&day) || (41..=71).contains(&day)) {
        return false;
    }
    let value = |c: u8| if c.is_ascii_digit() { digit(c) } else { u32::from(c - b'A') };
    let sum: u32 =
        b[..15].iter().enumerate().map(|(i, &c)| if i % 2 == 0 { ODD[value(c) as usize] } else { value(c) }).sum();
    b[15] == b'A' + (sum % 26) as u8
}

/// A German tax identification number (Steuer-ID): eleven digits, the first not 0; among the
/// first ten exactly one digit repeats (twice or three times); the last is the ISO 7064
/// MOD 11,10 check digit.
pub fn de_steuer_id(s: &str) -> bool {
    let b = alnum(s);
    if !digits_of(&b, 11) || b[0] == b'0' {
        return false;
    }
    let mut counts = [0u8; 10];
    for d in &b[..10] {
        counts[digit(*d) as usize] += 1;
    }
    let repeated = counts.iter().filter(|&&c| c > 1).count();
    if repeated != 1 || counts.iter().any(|&c| c > 3) {
        return false;
    }
    let mut product = 10;
    for d in &b[..10] {
        let mut sum = (digit(*d) + product) % 10;
        if sum == 0 {
            sum = 10;
        }
        product = (sum * 2) % 11;
    }
    let check = (11 - product) % 10;
    digit(b[10]) == check
}

/// A Singapore NRIC or FIN, `S1234567D`: prefix S, T (born from 2000), F or G (foreigners), seven
/// digits and the check letter of the weighted sum mod 11.
pub fn sg_nric(s: &str) -> bool {
    const W: [u32; 7] = [2, 7, 6, 5, 4, 3, 2];
    let b = alnum(s);
    if b.len() != 9 || !b[1..8].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let (offset, table): (u32, &[u8; 11]) = match b[0] {
        b'S' => (0, b"JZIHGFEDCBA"),
        b'T' => (4, b"JZIHGFEDCBA"),
        b'F' => (0, b"XWUTRQPNMLK"),
        b'G' => (4, b"XWUTRQPNMLK"),
        _ => return false,
    };
    let sum = weighted(&b[1..8], &W) + offset;
    table[(sum % 11) as usize] == b[8]
}

/// The ICAO 9303 check digit of an MRZ field: weights 7, 3, 1; `<` counts 0, letters 10 to 35.
fn mrz_check(field: &[u8], check: u8) -> bool {
    let value = |c: u8| match c {
        b'0'..=b'9' => u32::from(c - b'0'),
        b'A'..=b'Z' => u32::from(c - b'A') + 10,
        _ => 0,
    };
    let sum: u32 = field.iter().zip([7, 3, 1].iter().cycle()).map(|(c, w)| value(*c) * w).sum();
    let want = b'0' + (sum % 10) as u8;
    check == want || (check == b'<' && sum == 0)
}

/// A machine-readable zone of a travel document (ICAO 9303): a passport's second line (44
/// characters, TD3), a TD2 card or visa line (36) or a TD1 identity card's first two lines (30
/// each), the line before it optional. Every check digit must hold: document number, birth date,
/// expiry and the composite.
pub fn mrz(s: &str) -> bool {
    let lines: Vec<Vec<u8>> =
        s.split('\n').map(|l| l.trim().bytes().collect::<Vec<u8>>()).filter(|l| !l.is_empty()).collect();
    let Some(last) = lines.last() else { return false };
    let l = last.as_slice();
    match l.len() {
        44 => {
            let composite: Vec<u8> = [&l[..10], &l[13..20], &l[21..43]].concat();
            mrz_check(&l[..9], l[9])
                && mrz_check(&l[13..19], l[19])
                && mrz_check(&l[21..27], l[27])
                && mrz_check(&l[28..42], l[42])
                && mrz_check(&composite, l[43])
        }
        36 => {
            let composite: Vec<u8> = [&l[..10], &l[13..20], &l[21..35]].concat();
            mrz_check(&l[..9], l[9])
                && mrz_check(&l[13..19], l[19])
                && mrz_check(&l[21..27], l[27])
                && mrz_check(&composite, l[35])
        }
        30 if lines.len() >= 2 && lines[lines.len() - 2].len() == 30 => {
            let (a, b) = (lines[lines.len() - 2].as_slice(), l);
            let composite: Vec<u8> = [&a[5..30], &b[..7], &b[8..15], &b[18..29]].concat();
            mrz_check(&a[5..14], a[14])
                && mrz_check(&b[..6], b[6])
                && mrz_check(&b[8..14], b[14])
                && mrz_check(&composite, b[29])
        }
        _ => false,
    }
}

/// A Polish PESEL: eleven digits, a birth date whose month carries the century (+20 for the
/// 2000s, +80 for the 1800s, ...), and the weighted check digit (1-3-7-9).
pub fn pl_pesel(s: &str) -> bool {
    const W: [u32; 10] = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3];
    let b = alnum(s);
    if !digits_of(&b, 11) {
        return false;
    }
    let (mm, dd) = (number(&b[2..4]) as u32 % 20, number(&b[4..6]) as u32);
    day_month(dd, mm) && (10 - weighted(&b, &W) % 10) % 10 == digit(b[10])
}

/// A Swedish personal (or co-ordination) number, `YYMMDD-NNNC` or with the century: a date (the
/// day + 60 for a co-ordination number) and the Luhn digit over the ten-digit form.
pub fn se_personnummer(s: &str) -> bool {
    let b = alnum(s);
    let b = match b.len() {
        12 => &b[2..],
        10 => &b[..],
        _ => return false,
    };
    if !digits_of(b, 10) {
        return false;
    }
    let (mm, dd) = (number(&b[2..4]) as u32, number(&b[4..6]) as u32);
    let digits: Vec<u8> = b.iter().map(|d| d - b'0').collect();
    (day_month(dd, mm) || day_month(dd.wrapping_sub(60), mm)) && luhn(&digits)
}

/// A Finnish personal identity code (henkilötunnus), `DDMMYYCNNNX`: a date, a century sign and
/// the check character, the nine digits mod 31.
pub fn fi_hetu(s: &str) -> bool {
    let b: Vec<u8> = s.trim().bytes().map(|c| c.to_ascii_uppercase()).collect();
    if b.len() != 11 || !b"+-ABCDEFUVWXY".contains(&b[6]) {
        return false;
    }
    let digits = [&b[..6], &b[7..10]].concat();
    if !digits_of(&digits, 9) || !day_month(number(&b[..2]) as u32, number(&b[2..4]) as u32) {
        return false;
    }
    b"0123456789ABCDEFHJKLMNPRSTUVWXY"[(number(&digits) % 31) as usize] == b[10]
}

/// A Danish CPR number, `DDMMYY-NNNN`: a date only (the mod 11 check was given up in 2007), so
/// its rule needs a context word.
pub fn dk_cpr(s: &str) -> bool {
    let b = alnum(s);
    digits_of(&b, 10) && day_month(number(&b[..2]) as u32, number(&b[2..4]) as u32)
}

/// A Norwegian national identity number (fødselsnummer, or a D-/H-number, whose day or month
/// is raised by 40): a date and two mod 11 check digits.
pub fn no_fodselsnummer(s: &str) -> bool {
    const W1: [u32; 9] = [3, 7, 6, 1, 8, 9, 4, 5, 2];
    const W2: [u32; 10] = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
    let b = alnum(s);
    if !digits_of(&b, 11) {
        return false;
    }
    let (dd, mm) = (number(&b[..2]) as u32 % 40, number(&b[2..4]) as u32 % 40);
    let check = |w: &[u32], n: usize| {
        let k = (11 - weighted(&b[..n], w) % 11) % 11;
        k != 10 && k == digit(b[n])
    };
    day_month(dd, mm) && check(&W1, 9) && check(&W2, 10)
}

/// A Belgian national register number, `YY.MM.DD-SSS.CC`: 97 minus the first nine digits mod
/// 97 (with a 2 in front for those born from 2000). The month may be 0 (date unknown) or raised
/// by 20 or 40 (bis numbers).
pub fn be_national_number(s: &str) -> bool {
    let b = alnum(s);
    if !digits_of(&b, 11) || number(&b[2..4]) % 20 > 12 {
        return false;
    }
    let (n, cc) = (number(&b[..9]), number(&b[9..]));
    97 - n % 97 == cc || 97 - (2_000_000_000 + n) % 97 == cc
}

/// An Austrian social insurance number, `NNNC DDMMYY`: the weighted check digit (3-7-9, then
/// 5-8-4-2-1-6 over the date) mod 11, which is never 10, and a first digit that is not 0.
pub fn at_svnr(s: &str) -> bool {
    const W: [u32; 10] = [3, 7, 9, 0, 5, 8, 4, 2, 1, 6];
    let b = alnum(s);
    if !digits_of(&b, 10) || b[0] == b'0' {
        return false;
    }
    let dd = number(&b[4..6]) as u32;
    weighted(&b, &W) % 11 == digit(b[3]) && (1..=31).contains(&dd)
}

/// A Swiss AHV/AVS number, `756.NNNN.NNNN.NC`: the country prefix 756 and the EAN-13 check digit.
pub fn ch_ahv(s: &str) -> bool {
    let b = alnum(s);
    if !digits_of(&b, 13) || &b[..3] != b"756" {
        return false;
    }
    let sum: u32 = b[..12].iter().enumerate().map(|(i, d)| digit(*d) * if i % 2 == 0 { 1 } else { 3 }).sum();
    (10 - sum % 10) % 10 == digit(b[12])
}

/// An Irish PPS number, seven digits and one or two letters: the weighted sum (8 down to 2, the
/// second letter times 9) mod 23 picks the check letter.
pub fn ie_pps(s: &str) -> bool {
    let b = alnum(s);
    if !(8..=9).contains(&b.len())
        || !b[..7].iter().all(u8::is_ascii_digit)
        || !b[7..].iter().all(u8::is_ascii_uppercase)
    {
        return false;
    }
    let mut sum: u32 = b[..7].iter().enumerate().map(|(i, d)| digit(*d) * (8 - i as u32)).sum();
    if let Some(l) = b.get(8).filter(|l| **l != b'W') {
        sum += (u32::from(*l - b'A') + 1) * 9;
    }
    b"WABCDEFGHIJKLMNOPQRSTUV"[(sum % 23) as usize] == b[7]
}

/// A Portuguese tax number (NIF/NIPC): nine digits, a first digit in use, and the mod 11 check.
pub fn pt_nif(s: &str) -> bool {
    let b = alnum(s);
    if !digits_of(&b, 9) || b"04".contains(&b[0]) {
        return false;
    }
    let r = b[..8].iter().enumerate().map(|(i, d)| digit(*d) * (9 - i as u32)).sum::<u32>() % 11;
    (if r < 2 { 0 } else { 11 - r }) == digit(b[8])
}

/// The mod 11 check digit of Brazil's CPF and CNPJ over `b` with weights `w`.
fn br_check(b: &[u8], w: &[u32]) -> u32 {
    let r = weighted(b, w) % 11;
    if r < 2 {
        0
    } else {
        11 - r
    }
}

/// A Brazilian CPF, `NNN.NNN.NNN-CC`: two mod 11 check digits, and not one digit repeated.
pub fn br_cpf(s: &str) -> bool {
    let b = alnum(s);
    if !digits_of(&b, 11) || b.iter().all(|d| *d == b[0]) {
        return false;
    }
    br_check(&b[..9], &[10, 9, 8, 7, 6, 5, 4, 3, 2]) == digit(b[9])
        && br_check(&b[..10], &[11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) == digit(b[10])
}

/// A Brazilian CNPJ, `NN.NNN.NNN/NNNN-CC`: two mod 11 check digits, and not one digit repeated.
pub fn br_cnpj(s: &str) -> bool {
    const W: [u32; 13] = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    let b = alnum(s);
    if !digits_of(&b, 14) || b.iter().all(|d| *d == b[0]) {
        return false;
    }
    br_check(&b[..12], &W[1..]) == digit(b[12]) && br_check(&b[..13], &W) == digit(b[13])
}

/// An Indian Aadhaar number: twelve digits, the first 2-9, and the Verhoeff check digit.
pub fn in_aadhaar(s: &str) -> bool {
    const D: [[u8; 10]; 10] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
        [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
        [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
        [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
        [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
        [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
        [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
        [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ];
    const P: [[u8; 10]; 8] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
        [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
        [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
        [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
        [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
        [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
        [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
    ];
    let b = alnum(s);
    if !digits_of(&b, 12) || b[0] < b'2' {
        return false;
    }
    let c = b.iter().rev().enumerate().fold(0u8, |c, (i, d)| D[c as usize][P[i % 8][(d - b'0') as usize] as usize]);
    c == 0
}

/// A Canadian social insurance number: nine digits, not starting with 0 or 8, Luhn verified.
pub fn ca_sin(s: &str) -> bool {
    let b = alnum(s);
    digits_of(&b, 9) && !b"08".contains(&b[0]) && luhn(&b.iter().map(|d| d - b'0').collect::<Vec<_>>())
}

/// A US individual taxpayer identification number: 9NN-GG-NNNN with the group in the ranges
/// the IRS issues (50-65, 70-88, 90-92, 94-99).
pub fn us_itin(s: &str) -> bool {
    let b = alnum(s);
    if !digits_of(&b, 9) || b[0] != b'9' {
        return false;
    }
    let g = number(&b[3..5]);
    matches!(g, 50..=65 | 70..=88 | 90..=92 | 94..=99)
}

/// A Mexican CURP: four letters, a birth date, sex, state and consonants, and the check digit
/// over the first seventeen characters (weights 18 down to 2 in the alphabet with Ñ).
pub fn mx_curp(s: &str) -> bool {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ";
    let b = alnum(s);
    if b.len() != 18 || !b[4..10].iter().all(u8::is_ascii_digit) || !b"HMX".contains(&b[10]) || !b[17].is_ascii_digit()
    {
        return false;
    }
    if !day_month(number(&b[8..10]) as u32, number(&b[6..8]) as u32) {
        return false;
    }
    let mut sum = 0u32;
    for (i, c) in b[..17].iter().enumerate() {
        let Some(v) = ALPHABET.iter().position(|a| a == c) else { return false };
        sum += v as u32 * (18 - i as u32);
    }
    (10 - sum % 10) % 10 == digit(b[17])
}

/// A German identity card number: nine characters and the ICAO 9303 check digit.
pub fn de_ausweis(s: &str) -> bool {
    let b = alnum(s);
    b.len() == 10 && b[9].is_ascii_digit() && mrz_check(&b[..9], b[9])
}

/// Lengths of the runs of digits in `s`, split at every other character.
fn digit_groups(s: &str) -> Vec<usize> {
    s.split(|c: char| !c.is_ascii_digit()).filter(|g| !g.is_empty()).map(str::len).collect()
}

/// A run of digits that reads as a number a person owns: `min..=max` digits in all (`groups`: the
/// lengths of its runs), not one digit repeated, and not a date (`2024-05-01`, `01/05/2024`).
fn number_run(s: &str, groups: &[usize], min: usize, max: usize) -> bool {
    let n: usize = groups.iter().sum();
    let mut digits = s.bytes().filter(u8::is_ascii_digit);
    let first = digits.next();
    let date = matches!(groups, [4, a, b] | [a, b, 4] if *a <= 2 && *b <= 2);
    (min..=max).contains(&n) && digits.any(|d| Some(d) != first) && !date
}

/// A phone number written after a word that names one: 8 to 15 digits, not a date and not a
/// dotted IPv4 address.
pub fn phone_digits(s: &str) -> bool {
    let groups = digit_groups(s);
    let ipv4 = s.contains('.') && groups.len() == 4 && groups.iter().all(|g| *g <= 3);
    number_run(s, &groups, 8, 15) && !ipv4
}

/// A bank account number written after a word that names one: 6 to 23 digits, not a date.
pub fn bank_account(s: &str) -> bool {
    number_run(s, &digit_groups(s), 6, 23)
}

/// The check named in the rule file, or `None` for an unknown name.
pub fn by_name(name: &str) -> Option<fn(&str) -> bool> {
    Some(match name {
        "cn_id" => cn_resident_id,
        "hkid" => hkid,
        "tw_id" => tw_id,
        "jp_mynumber" => jp_my_number,
        "kr_rrn" => kr_rrn,
        "us_ssn" => us_ssn,
        "iban" => iban,
        "base64_userpass" => base64_userpass,
        "uk_nino" => uk_nino,
        "es_dni" => es_dni,
        "fr_nir" => fr_nir,
        "nl_bsn" => nl_bsn,
        "it_cf" => it_codice_fiscale,
        "de_steuer_id" => de_steuer_id,
        "sg_nric" => sg_nric,
        "mrz" => mrz,
        "pl_pesel" => pl_pesel,
        "se_pnr" => se_personnummer,
        "fi_hetu" => fi_hetu,
        "dk_cpr" => dk_cpr,
        "no_fnr" => no_fodselsnummer,
        "be_nrn" => be_national_number,
        "at_svnr" => at_svnr,
        "ch_ahv" => ch_ahv,
        "ie_pps" => ie_pps,
        "pt_nif" => pt_nif,
        "br_cpf" => br_cpf,
        "br_cnpj" => br_cnpj,
        "in_aadhaar" => in_aadhaar,
        "ca_sin" => ca_sin,
        "us_itin" => us_itin,
        "mx_curp" => mx_curp,
        "de_ausweis" => de_ausweis,
        "phone_digits" => phone_digits,
        "bank_account" => bank_account,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phone_and_account_runs_reject_dates_addresses_and_repeats() {
        for ok in ["9123 4567", "(11) 98765-4321", "+44 20 7946 0958", "8 (916) 123-45-67"] {
            assert!(phone_digits(ok), "{ok}");
        }
        for no in ["2024-05-01", "01/05/2024", "10.20.30.40", "1234 567", "1111 1111", "1234567890123456"] {
            assert!(!phone_digits(no), "{no}");
        }
        for ok in ["55779911", "123-456789-001", "5010 0123 4567 89"] {
            assert!(bank_account(ok), "{ok}");
        }
        for no in ["12345", "2024-11-30", "000000000", "1234567890123456789012345"] {
            assert!(!bank_account(no), "{no}");
        }
    }

    #[test]
    fn known_valid_numbers_pass_and_one_digit_off_fails() {
        type Case = (fn(&str) -> bool, &'static str, &'static str);
        let cases: &[Case] = &[
            (cn_resident_id, "11010519491231002X", "110105194912310021"),
            (cn_resident_id, "110105 1949 1231 002X", "110105 1949 1231 0020"),
            (hkid, "A123456(3)", "A123456(4)"),
            (hkid, "C668668(9)", "C668668(8)"),
            (tw_id, "A123456789", "A123456788"),
            (jp_my_number, "123456789018", "123456789017"),
            (jp_my_number, "1234 5678 9018", "1234 5678 9019"),
            (kr_rrn, "900101-1234568", "900101-1234567"),
            (us_ssn, "123-45-6789", "666-45-6789"),
            (iban, "DE89 3704 0044 0532 0130 00", "DE89 3704 0044 0532 0130 01"),
            (iban, "GB82WEST12345698765432", "GB82WEST12345698765433"),
            (base64_userpass, "dXNlcjpwYXNzd29yZA==", "aGVsbG8gd29ybGQ="),
            (uk_nino, "HZ 48 20 15 D", "HZ 48 20 15 E"),
            (uk_nino, "ER719304B", "GB719304B"),
            (es_dni, "12345678Z", "12345678A"),
            (es_dni, "X1234567L", "X1234567M"),
            (fr_nir, "2 69 05 49 588 157 80", "2 69 05 49 588 157 81"),
            (fr_nir, "1 85 05 2A 123 456 33", "1 85 05 2A 123 456 34"),
            (nl_bsn, "111222333", "111222334"),
            (it_codice_fiscale, "RSSMRA85T10A562S", "RSSMRA85T10A562T"),
            (de_steuer_id, "65929970489", "65929970488"),
            (sg_nric, "S1234567D", "S1234567E"),
            (sg_nric, "G5512340W", "G5512340X"),
            (mrz, "L898902C36UTO7408122F1204159ZE184226B<<<<<10", "L898902C36UTO7408122F1204159ZE184226B<<<<<11"),
            (mrz, "D231458907UTO7408122F1204159<<<<<<<6", "D231458907UTO7408122F1204159<<<<<<<7"),
            (
                mrz,
                "I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6",
                "I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<5",
            ),
            (pl_pesel, "44051401359", "44051401358"),
            (pl_pesel, "02070803628", "02070803627"),
            (se_personnummer, "811218-9876", "811218-9875"),
            (se_personnummer, "19811218-9876", "19811218-9877"),
            (fi_hetu, "131052-308T", "131052-308U"),
            (fi_hetu, "010594Y9032", "010594Y9033"),
            (dk_cpr, "070761-4285", "320761-4285"),
            (be_national_number, "93.05.18-223.61", "93.05.18-223.62"),
            (at_svnr, "1237 010180", "1238 010180"),
            (ch_ahv, "756.9217.0769.85", "756.9217.0769.86"),
            (ie_pps, "1234567T", "1234567A"),
            (ie_pps, "1234567FA", "1234567FB"),
            (pt_nif, "123456789", "123456788"),
            (br_cpf, "111.444.777-35", "111.444.777-36"),
            (br_cnpj, "11.222.333/0001-81", "11.222.333/0001-82"),
            (in_aadhaar, "2341 2341 2346", "2341 2341 2347"),
            (ca_sin, "130 692 544", "130 692 545"),
            (us_itin, "912-70-1234", "912-69-1234"),
            (de_ausweis, "T220001293", "T220001294"),
            (no_fodselsnummer, "01010750160", "01010750161"),
            (mx_curp, "HEGG560427MVZRRL04", "HEGG560427MVZRRL05"),
        ];
        for (check, ok, bad) in cases {
            assert!(check(ok), "{ok} should pass");
            assert!(!check(bad), "{bad} should fail");
        }
        assert!(luhn(&[4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]));
        assert!(!us_ssn("900-12-3456") && !us_ssn("123-00-4567") && !us_ssn("123-45-0000"));
        assert!(!uk_nino("DA123456A") && !uk_nino("AO123456A") && !uk_nino("NT123456A") && !uk_nino("AB12345A"));
        assert!(!fr_nir("1 85 15 75 123 456 39") && !nl_bsn("000000000") && !de_steuer_id("12345678903"));
        assert!(by_name("iban").is_some() && by_name("uk_nino").is_some() && by_name("nope").is_none());
    }
}
