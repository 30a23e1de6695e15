//! The bytes of a record file: UTF-8 (with or without a byte order mark)
//! or Shift-JIS as Windows writes it (cp932, the encoding of `.kif` files),
//! read into text and written back.
//!
//! [`decode`] takes UTF-8 when the bytes are valid UTF-8 (or a line near
//! the top says `encoding=UTF-8`, as `#KIF version=2.0 encoding=UTF-8`
//! does), Shift-JIS otherwise; bytes that are neither are an error naming
//! the line.
//!
//! ```
//! use tsume::record::encoding::{Encoding, decode, encode};
//!
//! let bytes = encode("先手の持駒：金\n", Encoding::ShiftJis).unwrap();
//! assert_eq!(bytes[..2], [0x90, 0xe6]); // 先 in Shift-JIS
//! assert_eq!(decode(&bytes).unwrap(), "先手の持駒：金\n");
//! assert_eq!(decode("▲７六歩".as_bytes()).unwrap(), "▲７六歩");
//! assert!(decode(b"P1 * \x81\n\xff\xff").is_err());
//! ```

use super::{Reason, RecordError};

/// A text encoding for record files.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Encoding {
    /// UTF-8, no byte order mark (`.kifu`, `.ki2u`, CSA V3.0).
    #[default]
    Utf8,
    /// Shift-JIS, Windows code page 932 (`.kif`, `.ki2`).
    ShiftJis,
}

/// A character the encoding cannot write.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: `{found}` cannot be written in Shift-JIS (cp932)")]
pub struct EncodeError {
    pub line: usize,
    pub found: char,
}

/// The text of a record file, in UTF-8 or Shift-JIS (see the module
/// documentation). A UTF-8 byte order mark is dropped.
pub fn decode(bytes: &[u8]) -> Result<String, RecordError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(text.to_string());
    }
    let says_utf8 = bytes
        .split(|&b| b == b'\n')
        .take(3)
        .any(|l| contains(&l.to_ascii_lowercase(), b"encoding=utf-8"));
    // A line feed is never part of a Shift-JIS double-byte character, so
    // lines can be decoded one by one and an error placed on its line.
    let lines = || bytes.split_inclusive(|&b| b == b'\n');
    let utf8_fault = lines().position(|l| std::str::from_utf8(l).is_err());
    if says_utf8 {
        let line = utf8_fault.unwrap_or(0);
        return Err(RecordError::new(line + 1, None, Reason::NotUtf8));
    }
    let mut out = String::with_capacity(bytes.len() * 3 / 2);
    for (i, line) in lines().enumerate() {
        match encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(line) {
            Some(s) => out.push_str(&s),
            None => {
                // Neither encoding reads the text: the fault is most likely
                // where the one that reads further stops.
                let line = utf8_fault.map_or(i, |u| u.max(i));
                return Err(RecordError::new(line + 1, None, Reason::Encoding));
            }
        }
    }
    Ok(out)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The bytes of `text` in `encoding`.
pub fn encode(text: &str, encoding: Encoding) -> Result<Vec<u8>, EncodeError> {
    match encoding {
        Encoding::Utf8 => Ok(text.as_bytes().to_vec()),
        Encoding::ShiftJis => {
            let (bytes, _, had_errors) = encoding_rs::SHIFT_JIS.encode(text);
            if !had_errors {
                return Ok(bytes.into_owned());
            }
            let mut buf = [0u8; 4];
            for (i, line) in text.lines().enumerate() {
                for c in line.chars() {
                    let (_, _, bad) = encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut buf));
                    if bad {
                        return Err(EncodeError {
                            line: i + 1,
                            found: c,
                        });
                    }
                }
            }
            Err(EncodeError {
                line: 1,
                found: '\u{fffd}',
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_and_bad_lines() {
        assert_eq!(decode("\u{feff}手数".as_bytes()).unwrap(), "手数");
        let err = decode(b"ok\nok\n\x82\xa0\x82\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert_eq!(err.reason, Reason::Encoding);
        let err = decode(b"#KIF version=2.0 encoding=UTF-8\n\x82\xa0\n").unwrap_err();
        assert_eq!((err.line, err.reason), (2, Reason::NotUtf8));
    }

    #[test]
    fn shift_jis_round_trip_and_unwritable() {
        let text = "後手の持駒：飛二　角　金四\n|v香v桂 ・|一\n▲７六歩 △同　歩\n";
        let bytes = encode(text, Encoding::ShiftJis).unwrap();
        assert!(std::str::from_utf8(&bytes).is_err());
        assert_eq!(decode(&bytes).unwrap(), text);
        let err = encode("a\n☗７六歩", Encoding::ShiftJis).unwrap_err();
        assert_eq!((err.line, err.found), (2, '☗'));
    }
}
