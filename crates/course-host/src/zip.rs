//! A zip archive writer, enough for a Gradescope bundle (`course autograder
//! gradescope`): entries deflated (miniz_oxide) when that is smaller, else
//! stored, with Unix permissions, CRC-32, a fixed timestamp so the same
//! files give the same bytes. Reading back (for tests and checks) handles
//! archives written here. Pure bytes in and out: the caller writes the file.

/// One file of an archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The path inside the archive (`/`-separated, no leading `/`).
    pub name: String,
    /// Unix permission bits (`0o755` for scripts and programs).
    pub mode: u32,
    /// The file's bytes, stored uncompressed or deflated as the writer sees fit.
    pub data: Vec<u8>,
}

/// CRC-32 (IEEE 802.3, reflected), as zip uses it.
pub fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    let mut c = !0u32;
    for &b in data {
        c = table[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// 1980-01-01 00:00, the earliest DOS date: (time, date).
const DOS_TIME: (u16, u16) = (0, (1 << 5) | 1);

/// The archive of `entries`, in their order. Fails on an entry or archive
/// too large for a zip without the 64-bit extension (4 GiB).
pub fn write(entries: &[Entry]) -> Result<Vec<u8>, String> {
    let mut out: Vec<u8> = Vec::new();
    let mut central: Vec<u8> = Vec::new();
    let small =
        |n: usize, what: &str| u32::try_from(n).map_err(|_| format!("{what}: too large for a zip"));
    for e in entries {
        let offset = small(out.len(), &e.name)?;
        let size = small(e.data.len(), &e.name)?;
        // Deflated (method 8) when that is smaller, else stored (0).
        let deflated = miniz_oxide::deflate::compress_to_vec(&e.data, 9);
        let (method, body): (u16, &[u8]) = if deflated.len() < e.data.len() {
            (8, &deflated)
        } else {
            (0, &e.data)
        };
        let packed = small(body.len(), &e.name)?;
        let name_len =
            u16::try_from(e.name.len()).map_err(|_| format!("{}: name too long", e.name))?;
        // The fields a local header and its central record share, from
        // "version needed" to the extra field's length.
        let mut shared = Vec::with_capacity(26);
        shared.extend_from_slice(&20u16.to_le_bytes()); // version needed
        shared.extend_from_slice(&0u16.to_le_bytes()); // flags
        shared.extend_from_slice(&method.to_le_bytes());
        shared.extend_from_slice(&DOS_TIME.0.to_le_bytes());
        shared.extend_from_slice(&DOS_TIME.1.to_le_bytes());
        shared.extend_from_slice(&crc32(&e.data).to_le_bytes());
        shared.extend_from_slice(&packed.to_le_bytes());
        shared.extend_from_slice(&size.to_le_bytes());
        shared.extend_from_slice(&name_len.to_le_bytes());
        shared.extend_from_slice(&0u16.to_le_bytes()); // extra
        // Local file header.
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        out.extend_from_slice(&shared);
        out.extend_from_slice(e.name.as_bytes());
        out.extend_from_slice(body);
        // Central directory record: made by Unix (3), version 2.0.
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&((3u16 << 8) | 20).to_le_bytes());
        central.extend_from_slice(&shared);
        central.extend_from_slice(&0u16.to_le_bytes()); // comment
        central.extend_from_slice(&0u16.to_le_bytes()); // disk
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        central.extend_from_slice(&((0o100_000 | (e.mode & 0o7777)) << 16).to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(e.name.as_bytes());
    }
    let cd_offset = small(out.len(), "the archive")?;
    let cd_size = small(central.len(), "the archive")?;
    let count = u16::try_from(entries.len()).map_err(|_| "too many entries".to_string())?;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&cd_size.to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    Ok(out)
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The entries of an archive of stored or deflated entries (as [`write()`]
/// makes them), by its central directory; `None` when it is not one.
pub fn read(b: &[u8]) -> Option<Vec<Entry>> {
    let end = (0..b.len().saturating_sub(21))
        .rev()
        .find(|&i| u32_at(b, i) == Some(0x0605_4b50))?;
    let count = u16_at(b, end + 10)? as usize;
    let mut at = u32_at(b, end + 16)? as usize;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let method = u16_at(b, at + 10)?;
        if u32_at(b, at)? != 0x0201_4b50 || !matches!(method, 0 | 8) {
            return None;
        }
        let packed = u32_at(b, at + 20)? as usize;
        let size = u32_at(b, at + 24)? as usize;
        let (name_len, extra, comment) = (
            u16_at(b, at + 28)? as usize,
            u16_at(b, at + 30)? as usize,
            u16_at(b, at + 32)? as usize,
        );
        let mode = (u32_at(b, at + 38)? >> 16) & 0o7777;
        let local = u32_at(b, at + 42)? as usize;
        let name = String::from_utf8(b.get(at + 46..at + 46 + name_len)?.to_vec()).ok()?;
        let data_at =
            local + 30 + u16_at(b, local + 26)? as usize + u16_at(b, local + 28)? as usize;
        let body = b.get(data_at..data_at + packed)?;
        let data = if method == 8 {
            miniz_oxide::inflate::decompress_to_vec_with_limit(body, size).ok()?
        } else {
            body.to_vec()
        };
        if data.len() != size {
            return None;
        }
        if crc32(&data) != u32_at(b, at + 16)? {
            return None;
        }
        out.push(Entry { name, mode, data });
        at += 46 + name_len + extra + comment;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_the_check_string() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn archives_round_trip_with_modes() {
        let entries = vec![
            Entry {
                name: "run_autograder".into(),
                mode: 0o755,
                data: b"#!/bin/sh\necho hi\n".to_vec(),
            },
            Entry {
                name: "data/empty".into(),
                mode: 0o644,
                data: Vec::new(),
            },
        ];
        let z = write(&entries).unwrap();
        assert_eq!(read(&z).unwrap(), entries);
        assert_eq!(write(&entries).unwrap(), z, "the same bytes every time");
    }
}
