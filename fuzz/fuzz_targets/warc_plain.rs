//! The WARC reader on arbitrary bytes, as a file with no known extension (the reader then
//! sniffs gzip/zstd/lz4 magic itself): no panic, two reads agree, pages within the size cap.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    outward_fuzz::read_archive("plain.warc", data);
});
