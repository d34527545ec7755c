//! [`decode_members`]: everything a gzip reader of fastwarc's kind decodes, its first error
//! and the member starts it reports (the gzip tests and the `gzip_members` fuzz target).

/// What a gzip reader decoded: its bytes, its first error (as text) and the member starts
/// (`frame_start_position`) it reported after each `fill_buf` step, each once.
pub type DecodedMembers = (Vec<u8>, Option<String>, Vec<u64>);

/// Reads `reader` to its end or first error in `fill_buf` steps (see [`DecodedMembers`]).
pub fn decode_members(mut reader: impl fastwarc::stream_io::traits::WarcRead) -> DecodedMembers {
    let mut bytes = Vec::new();
    let mut starts = Vec::new();
    loop {
        match reader.fill_buf() {
            Ok([]) => return (bytes, None, starts),
            Ok(buf) => {
                let n = buf.len();
                bytes.extend_from_slice(buf);
                reader.consume(n);
                if let Ok(Some(start)) = reader.frame_start_position()
                    && starts.last() != Some(&start)
                {
                    starts.push(start);
                }
            }
            Err(e) => return (bytes, Some(e.to_string()), starts),
        }
    }
}
