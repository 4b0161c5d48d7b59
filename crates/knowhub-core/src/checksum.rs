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
    if b.len() != 18 || !b[..17].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let num = |r: std::ops::Range<usize>| b[r].iter().fold(0, |a, d| a * 10 + digit(*d));
    let (year, month, day) = (num(6..10), num(10..12), num(12..14));
    if !(1900..=2099).contains(&year) || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return false;
    }
    let sum: u32 = b[..17].iter().zip(W).map(|(d, w)| digit(*d) * w).sum();
    b"10X98765432"[(sum % 11) as usize] == b[17]
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
    if b.len() != 12 || !b.iter().all(u8::is_ascii_digit) {
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
    if b.len() != 13 || !b.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let sum: u32 = b[..12].iter().zip(W).map(|(d, w)| digit(*d) * w).sum();
    (11 - sum % 11) % 10 == digit(b[12])
}

/// A US social security number that could be issued: area not 000, 666 or 9xx, group not 00,
/// serial not 0000.
pub fn us_ssn(s: &str) -> bool {
    let b = alnum(s);
    if b.len() != 9 || !b.iter().all(u8::is_ascii_digit) {
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
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        ];
        for (check, ok, bad) in cases {
            assert!(check(ok), "{ok} should pass");
            assert!(!check(bad), "{bad} should fail");
        }
        assert!(luhn(&[4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]));
        assert!(!us_ssn("900-12-3456") && !us_ssn("123-00-4567") && !us_ssn("123-45-0000"));
        assert!(!uk_nino("DA123456A") && !uk_nino("AO123456A") && !uk_nino("NT123456A") && !uk_nino("AB12345A"));
        assert!(by_name("iban").is_some() && by_name("uk_nino").is_some() && by_name("nope").is_none());
    }
}
