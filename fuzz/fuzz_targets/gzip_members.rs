//! `.warc.gz` decoding: `outward_warc::gzip::MemberGzipReader` (libdeflate, a whole member at a
//! time, zlib-rs for the members it cannot take) against fastwarc's streaming `GzipReader` on
//! the same bytes. Input that already is gzip (the seeds of real `.warc.gz` files) is decoded
//! as is, so damaged headers, Huffman tables, CRCs and cut members are fuzzed; anything else is
//! gzipped one member per record first.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let file = if data.starts_with(&[0x1f, 0x8b]) {
        data.to_vec()
    } else {
        outward_fuzz::gzip_members(data)
    };
    outward_fuzz::check_member_decoding(&file);
});
