//! kobalab's paipu JSON (電脳麻将, majiang-core; @kobalab/tenhou-log's conversions of Tenhou
//! logs): `read` into the decoded events, one paipu or an array of them per file.

pub(crate) mod read;
