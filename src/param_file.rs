//! The identity of the §3 tsumo-rate parameter file: the name and version it declares. The
//! writer (`params`) and the reader that scores a file against real draws (`report::tsumo`)
//! both take them from here, so that neither module imports the other.

/// Format name of the parameter file (`"format"`).
pub const FORMAT: &str = "haifu.tsumo-rate";
/// Version of its layout (`"format_version"`).
pub const FORMAT_VERSION: u32 = 1;
