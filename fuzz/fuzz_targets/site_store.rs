//! The site store's readers on arbitrary bytes: total (a value or an error, never a panic);
//! a host record that reads writes back to a record that reads to the same builder, and
//! writing is canonical (the same builder, the same bytes); its final form (what a final
//! store keeps, `keep_final`) keeps its page count, reads back, and is final already. The
//! block, index and footer readers get the same bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_core::site::store::{
    FOOTER_BYTES, Footer, Index, MAGIC, block_records, host_records, read_record, record_header,
};

fuzz_target!(|data: &[u8]| {
    let _ = record_header(data);
    for record in block_records(data).take(64) {
        if let Ok(record) = record {
            let _ = read_record(record);
        }
    }
    let _ = Index::from_bytes(data, data.len() as u64);
    if data.len() >= FOOTER_BYTES {
        let _ = Footer::read(MAGIC, &data[data.len() - FOOTER_BYTES..], data.len() as u64);
    }
    let Ok(builder) = read_record(data) else {
        return;
    };
    let written: Vec<_> = host_records(&builder).collect();
    assert_eq!(written.len(), 1, "one record, one host");
    let back = read_record(&written[0].bytes).expect("a written record reads back");
    assert_eq!(
        record_header(&written[0].bytes),
        Ok((written[0].name.as_str(), builder.pages())),
        "the header names the host and its pages"
    );
    assert_eq!(back, builder, "read_record(host_records(b)) != b");
    assert_eq!(
        host_records(&back).next().map(|r| r.bytes),
        Some(written[0].bytes.clone()),
        "host_records is not canonical"
    );
    let mut kept = builder.clone();
    kept.keep_final(3);
    if builder.pages() >= 3 {
        let record = host_records(&kept).next().expect("a host of 3 pages stays");
        assert_eq!(
            record.pages,
            builder.pages(),
            "the final form keeps the page count"
        );
        let back = read_record(&record.bytes).expect("a final record reads back");
        let mut again = back.clone();
        again.keep_final(3);
        assert_eq!(again, back, "keep_final is not idempotent");
    } else {
        assert!(kept.is_empty(), "a host of fewer than 3 pages stays");
    }
});
