// The predicate functions of sift.h. Each validates its arguments, looks its handle up and
// hands over to CompiledPredicate (Engine.swift); no Swift error or trap crosses.

/// `sift_predicate_compile` (include/sift.h): Compiles a format with JSON arguments and variables into a predicate handle.
@_cdecl("sift_predicate_compile")
public func sift_predicate_compile(
  _ format: UnsafePointer<CChar>?, _ formatLength: Int, _ args: UnsafePointer<CChar>?, _ argsLength: Int,
  _ vars: UnsafePointer<CChar>?, _ varsLength: Int, _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?,
  _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  Reporting.run(error) { () throws(Failure) -> Int32 in
    guard let out else { throw Failure(.null, "out is NULL") }
    out.pointee = nil
    let text = try Buffers.required(format, formatLength, what: "format")
    let arguments = try Buffers.view(args, argsLength, what: "args_json", optional: true)
    let variables = try Buffers.view(vars, varsLength, what: "vars_json", optional: true)
    let known = CompileFlags(rawValue: flags)
    guard known.isSubset(of: .all) else {
      throw Failure(.argument, "unknown compile flags 0x\(String(flags, radix: 16))")
    }
    let compiled = try CompiledPredicate.compile(format: text, arguments: arguments, variables: variables, flags: known)
    try Reporting.publish(compiled, to: out)
    return Status.ok.rawValue
  }
}

/// `sift_predicate_free` (include/sift.h): Frees a predicate handle.
@_cdecl("sift_predicate_free")
public func sift_predicate_free(_ predicate: OpaquePointer?) -> Int32 {
  HandleTable.shared.remove(predicate, as: CompiledPredicate.self) == nil ? Status.handle.rawValue : Status.ok.rawValue
}

/// `sift_predicate_evaluate` (include/sift.h): Evaluates one JSON document: 1, 0 or a negative status.
@_cdecl("sift_predicate_evaluate")
public func sift_predicate_evaluate(
  _ predicate: OpaquePointer?, _ json: UnsafePointer<CChar>?, _ length: Int,
  _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  Reporting.run(error) { () throws(Failure) -> Int32 in
    let compiled = try Reporting.object(predicate, CompiledPredicate.self, "predicate")
    let document = try Buffers.required(json, length, what: "json")
    // simdjson takes at most 4 GiB (less its padding) in one document.
    guard length <= Int(UInt32.max) - 64 else { throw Failure(.tooLarge, "a document is at most 4 GiB") }
    switch compiled.evaluate(document: document) {
    case .match: return 1
    case .noMatch: return 0
    case .failure(let failure): throw failure
    }
  }
}

/// `sift_predicate_evaluate_string` (include/sift.h): Evaluates with a UTF-8 string as SELF.
@_cdecl("sift_predicate_evaluate_string")
public func sift_predicate_evaluate_string(
  _ predicate: OpaquePointer?, _ utf8: UnsafePointer<CChar>?, _ length: Int,
  _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  Reporting.run(error) { () throws(Failure) -> Int32 in
    let compiled = try Reporting.object(predicate, CompiledPredicate.self, "predicate")
    let bytes = try Buffers.required(utf8, length, what: "utf8")
    if let bad = UTF8Check.firstInvalidByte(bytes) {
      throw Failure(.utf8, "the string is not valid UTF-8 (byte \(bad))", offset: bad)
    }
    switch compiled.evaluate(string: String(decoding: bytes.uint8, as: UTF8.self)) {
    case .match: return 1
    case .noMatch: return 0
    case .failure(let failure): throw failure
    }
  }
}

/// `sift_predicate_evaluate_lines` (include/sift.h): Evaluates every line of a JSON Lines buffer into a result handle.
@_cdecl("sift_predicate_evaluate_lines")
public func sift_predicate_evaluate_lines(
  _ predicate: OpaquePointer?, _ buffer: UnsafePointer<CChar>?, _ length: Int, _ flags: UInt32,
  _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  Reporting.run(error) { () throws(Failure) -> Int32 in
    guard let out else { throw Failure(.null, "out is NULL") }
    out.pointee = nil
    let compiled = try Reporting.object(predicate, CompiledPredicate.self, "predicate")
    let lines = try Buffers.required(buffer, length, what: "buf")
    guard flags & ~UInt32(0x3) == 0 else { throw Failure(.argument, "unknown flags 0x\(String(flags, radix: 16))") }
    let result = compiled.evaluateLines(lines, spans: flags & 0x1 != 0, matched: flags & 0x2 != 0)
    try Reporting.publish(result, to: out)
    return Status.ok.rawValue
  }
}

/// `sift_predicate_format` (include/sift.h): Writes the canonical text.
@_cdecl("sift_predicate_format")
public func sift_predicate_format(
  _ predicate: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
  _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
  writeText(\.canonical, of: predicate, to: buffer, capacity: capacity, length: length)
}

/// `sift_predicate_keys` (include/sift.h): Writes the top-level keys read, as JSON.
@_cdecl("sift_predicate_keys")
public func sift_predicate_keys(
  _ predicate: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
  _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
  writeText(\.keysJSON, of: predicate, to: buffer, capacity: capacity, length: length)
}

/// A text of the predicate behind `handle` into the caller's buffer, as the header's
/// buffer rule says (``Buffers/write(_:to:capacity:length:)``).
private func writeText(
  _ text: KeyPath<CompiledPredicate, [UInt8]>, of handle: OpaquePointer?, to buffer: UnsafeMutablePointer<CChar>?,
  capacity: Int, length: UnsafeMutablePointer<Int>?
) -> Int32 {
  guard let compiled = HandleTable.shared.object(handle, as: CompiledPredicate.self) else {
    return Status.handle.rawValue
  }
  return Buffers.write(compiled[keyPath: text], to: buffer, capacity: capacity, length: length)
}

/// `sift_predicate_equal` (include/sift.h): 1 when two predicates are equal, 0 when not.
@_cdecl("sift_predicate_equal")
public func sift_predicate_equal(_ a: OpaquePointer?, _ b: OpaquePointer?) -> Int32 {
  guard let first = HandleTable.shared.object(a, as: CompiledPredicate.self),
    let second = HandleTable.shared.object(b, as: CompiledPredicate.self)
  else { return Status.handle.rawValue }
  return first.isEqual(to: second) ? 1 : 0
}

/// `sift_predicate_hash` (include/sift.h): A hash consistent with sift_predicate_equal.
@_cdecl("sift_predicate_hash")
public func sift_predicate_hash(_ predicate: OpaquePointer?, _ hash: UnsafeMutablePointer<UInt64>?) -> Int32 {
  guard let compiled = HandleTable.shared.object(predicate, as: CompiledPredicate.self) else {
    return Status.handle.rawValue
  }
  guard let hash else { return Status.null.rawValue }
  hash.pointee = compiled.hash
  return Status.ok.rawValue
}
