//! The WARC reader on `.warc.zst` files: zstd input as is (corrupt and truncated frames),
//! anything else compressed as one zstd frame first.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        outward_fuzz::read_archive("raw.warc.zst", data);
    } else {
        outward_fuzz::read_archive("frame.warc.zst", &outward_fuzz::zstd(data));
    }
});
