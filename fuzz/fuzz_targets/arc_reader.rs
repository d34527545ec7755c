//! The ARC (v1) reader, through `WarcReader` (it sniffs `filedesc://`): the bytes as an `.arc`
//! file, and gzipped one member per record as an `.arc.gz` file.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    outward_fuzz::read_archive("plain.arc", data);
    if !data.starts_with(&[0x1f, 0x8b]) {
        let mut gz = Vec::new();
        for part in outward_fuzz::split_records(data, b"http") {
            gz.extend_from_slice(&outward_fuzz::gzip(part));
        }
        outward_fuzz::read_archive("members.arc.gz", &gz);
    }
});
