//! The one output document type and its one serialisation (Dolma-style JSONL line).
