import Testing

/// The pipeline's suites, one test at a time: each starts servers, downloaders
/// and decodes, and run all at once on two cores they slow the
/// timing-sensitive downloader suites beside them past their bounds.
@Suite(.serialized)
enum PipelineTests {}
