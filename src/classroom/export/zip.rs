//! A ZIP archive of stored (uncompressed) files, for the QTI content package and the SCORM
//! package: the format of PKWARE's APPNOTE.TXT (version 6.3.10, sections 4.3.7 local file
//! header, 4.3.12 central directory header, 4.3.16 end of central directory), with UTF-8 names
//! (general purpose flag bit 11). Stored entries need no compressor, so this is the whole
//! writer (the `zip` crate would add a dependency tree to a bundle that is already over budget
//! for the one method an LMS must read). CRC-32 is the IEEE polynomial (reflected 0xEDB88320).

/// The CRC-32 of `bytes` (ISO-HDLC: initial and final XOR 0xFFFFFFFF), as ZIP and PNG use it.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xedb8_8320 & mask);
        }
    }
    !crc
}

/// DOS date of 1980-01-01 (the format's epoch; a fixed date keeps a package's bytes the same
/// for the same request).
const DOS_DATE: u16 = (1 << 5) | 1;
const UTF8_NAMES: u16 = 1 << 11;

/// The archive of `files` (path, contents), in order.
pub fn stored(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in files {
        let offset = out.len() as u32;
        let crc = crc32(data);
        let size = data.len() as u32;
        let name_len = name.len() as u16;
        push32(&mut out, 0x0403_4b50);
        for v in [20, UTF8_NAMES, 0, 0, DOS_DATE] {
            push16(&mut out, v);
        }
        for v in [crc, size, size] {
            push32(&mut out, v);
        }
        push16(&mut out, name_len);
        push16(&mut out, 0);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);

        push32(&mut central, 0x0201_4b50);
        for v in [20, 20, UTF8_NAMES, 0, 0, DOS_DATE] {
            push16(&mut central, v);
        }
        for v in [crc, size, size] {
            push32(&mut central, v);
        }
        for v in [name_len, 0, 0, 0, 0] {
            push16(&mut central, v);
        }
        push32(&mut central, 0);
        push32(&mut central, offset);
        central.extend_from_slice(name.as_bytes());
    }
    let central_offset = out.len() as u32;
    let central_size = central.len() as u32;
    out.extend_from_slice(&central);
    push32(&mut out, 0x0605_4b50);
    for v in [0, 0, files.len() as u16, files.len() as u16] {
        push16(&mut out, v);
    }
    push32(&mut out, central_size);
    push32(&mut out, central_offset);
    push16(&mut out, 0);
    out
}

fn push16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn push32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_gives_the_check_value() {
        // The CRC catalogue's check value of CRC-32/ISO-HDLC over "123456789".
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn an_archive_ends_with_its_directory() {
        let z = stored(&[("a.txt".into(), b"hello".to_vec())]);
        assert_eq!(&z[..4], &[0x50, 0x4b, 0x03, 0x04]);
        let end = &z[z.len() - 22..];
        assert_eq!(&end[..4], &[0x50, 0x4b, 0x05, 0x06]);
        assert_eq!(u16::from_le_bytes([end[10], end[11]]), 1);
    }
}
