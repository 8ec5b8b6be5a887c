// The accessors of sift.h's result and error objects, and the version.

/// `SIFT_VERSION` of sift.h: the library's version.
let libraryVersion: StaticString = "0.1.0"
/// `SIFT_ABI_VERSION` of sift.h.
let abiVersion: Int32 = 1

/// `sift_version` (include/sift.h): The library's version string.
@_cdecl("sift_version")
public func sift_version() -> UnsafePointer<CChar> {
  // A string literal's storage ends with a NUL.
  UnsafeRawPointer(libraryVersion.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// `sift_abi_version` (include/sift.h): The library's ABI version.
@_cdecl("sift_abi_version")
public func sift_abi_version() -> Int32 { abiVersion }

/// A static string as a C string (string literals are stored with a terminating NUL).
private func cString(_ text: StaticString) -> UnsafePointer<CChar> {
  UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}

// MARK: Errors

/// `sift_error_code` (include/sift.h): An error's status.
@_cdecl("sift_error_code")
public func sift_error_code(_ error: OpaquePointer?) -> Int32 {
  HandleTable.shared.object(error, as: ErrorObject.self)?.status.rawValue ?? Status.handle.rawValue
}

/// `sift_error_kind` (include/sift.h): An error's kind, a static string.
@_cdecl("sift_error_kind")
public func sift_error_kind(_ error: OpaquePointer?) -> UnsafePointer<CChar>? {
  HandleTable.shared.object(error, as: ErrorObject.self).map { cString($0.word) }
}

/// `sift_error_message` (include/sift.h): An error's message.
@_cdecl("sift_error_message")
public func sift_error_message(_ error: OpaquePointer?, _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
  guard let object = HandleTable.shared.object(error, as: ErrorObject.self) else { return nil }
  length?.pointee = object.message.count
  return UnsafePointer(object.message.pointer)
}

/// `sift_error_offset` (include/sift.h): An error's UTF-8 byte offset, or -1.
@_cdecl("sift_error_offset")
public func sift_error_offset(_ error: OpaquePointer?) -> Int64 {
  HandleTable.shared.object(error, as: ErrorObject.self)?.offset ?? -2
}

/// `sift_error_rendered` (include/sift.h): An error's rendered diagnostic.
@_cdecl("sift_error_rendered")
public func sift_error_rendered(_ error: OpaquePointer?, _ length: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>?
{
  guard let object = HandleTable.shared.object(error, as: ErrorObject.self) else { return nil }
  length?.pointee = object.rendered.count
  return UnsafePointer(object.rendered.pointer)
}

/// `sift_error_free` (include/sift.h): Frees an error object.
@_cdecl("sift_error_free")
public func sift_error_free(_ error: OpaquePointer?) -> Int32 {
  HandleTable.shared.remove(error, as: ErrorObject.self) == nil ? Status.handle.rawValue : Status.ok.rawValue
}

// MARK: Lines

/// `sift_lines_results` (include/sift.h): One result byte per line.
@_cdecl("sift_lines_results")
public func sift_lines_results(
  _ lines: OpaquePointer?, _ results: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let result = try Reporting.object(lines, LinesResult.self, "lines")
    guard let results, let count else { throw Failure(.null, "results or count is NULL") }
    results.pointee = result.count == 0 ? nil : UnsafePointer(result.results.baseAddress)
    count.pointee = result.count
    return Status.ok.rawValue
  }
}

/// `sift_lines_counts` (include/sift.h): Lines, matches and errors of a lines result.
@_cdecl("sift_lines_counts")
public func sift_lines_counts(
  _ lines: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?, _ matched: UnsafeMutablePointer<Int>?,
  _ errors: UnsafeMutablePointer<Int>?
) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let result = try Reporting.object(lines, LinesResult.self, "lines")
    count?.pointee = result.count
    matched?.pointee = result.matchedCount
    errors?.pointee = result.errors.count
    return Status.ok.rawValue
  }
}

/// `sift_lines_spans` (include/sift.h): Where each line is (with SIFT_LINES_SPANS).
@_cdecl("sift_lines_spans")
public func sift_lines_spans(
  _ lines: OpaquePointer?, _ starts: UnsafeMutablePointer<UnsafePointer<UInt64>?>?,
  _ lengths: UnsafeMutablePointer<UnsafePointer<UInt64>?>?, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let result = try Reporting.object(lines, LinesResult.self, "lines")
    guard let starts, let lengths, let count else { throw Failure(.null, "starts, lengths or count is NULL") }
    guard let s = result.starts, let l = result.lengths else {
      throw Failure(.argument, "the lines were evaluated without SIFT_LINES_SPANS")
    }
    starts.pointee = UnsafePointer(s.baseAddress)
    lengths.pointee = UnsafePointer(l.baseAddress)
    count.pointee = result.count
    return Status.ok.rawValue
  }
}

/// `sift_lines_matched` (include/sift.h): The matching lines' bytes (with SIFT_LINES_MATCHED).
@_cdecl("sift_lines_matched")
public func sift_lines_matched(
  _ lines: OpaquePointer?, _ bytes: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let result = try Reporting.object(lines, LinesResult.self, "lines")
    guard let bytes, let length else { throw Failure(.null, "bytes or length is NULL") }
    guard let matched = result.matchedBytes else {
      throw Failure(.argument, "the lines were evaluated without SIFT_LINES_MATCHED")
    }
    bytes.pointee = UnsafePointer(matched.baseAddress)
    length.pointee = matched.count
    return Status.ok.rawValue
  }
}

/// `sift_lines_error` (include/sift.h): One line's error.
@_cdecl("sift_lines_error")
public func sift_lines_error(
  _ lines: OpaquePointer?, _ index: Int, _ line: UnsafeMutablePointer<Int>?, _ code: UnsafeMutablePointer<Int32>?,
  _ kind: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ message: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
  _ messageLength: UnsafeMutablePointer<Int>?, _ offset: UnsafeMutablePointer<Int64>?
) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let result = try Reporting.object(lines, LinesResult.self, "lines")
    guard index >= 0, index < result.errors.count else { throw Failure(.argument, "index \(index) is past the end") }
    let error = result.errors[index]
    line?.pointee = error.line
    code?.pointee = error.status.rawValue
    kind?.pointee = cString(error.word)
    message?.pointee = UnsafePointer(error.message.pointer)
    messageLength?.pointee = error.message.count
    offset?.pointee = error.offset
    return Status.ok.rawValue
  }
}

/// `sift_lines_free` (include/sift.h): Frees a lines result.
@_cdecl("sift_lines_free")
public func sift_lines_free(_ lines: OpaquePointer?) -> Int32 {
  HandleTable.shared.remove(lines, as: LinesResult.self) == nil ? Status.handle.rawValue : Status.ok.rawValue
}
