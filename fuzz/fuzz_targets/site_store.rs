//! The site store reader on arbitrary bytes: total (a builder or an error), and what it reads
//! writes back to bytes that read back to the same builder (`from_bytes(to_bytes(b)) == b`,
//! within the store's bounds), and `to_bytes` is canonical (the same builder, the same bytes).
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_core::site::store::{MAGIC, from_bytes, to_bytes};

fuzz_target!(|data: &[u8]| {
    // Half the inputs get the magic for free, so the mutator works on the layout after it.
    let owned;
    let bytes = if data.first().is_some_and(|b| b & 1 == 1) {
        owned = [&MAGIC[..], &data[1..]].concat();
        &owned[..]
    } else {
        data
    };
    let Ok(builder) = from_bytes(bytes) else {
        return;
    };
    let written = to_bytes(&builder);
    let back = from_bytes(&written).expect("a written store reads back");
    assert_eq!(back, builder, "from_bytes(to_bytes(b)) != b");
    assert_eq!(to_bytes(&back), written, "to_bytes is not canonical");
});
