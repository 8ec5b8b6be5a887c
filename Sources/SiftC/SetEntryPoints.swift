// The predicate-set functions of sift.h (SiftPredicateSet through PredicateSetObject).

/// `sift_set_create` (include/sift.h): Creates a predicate set with number or byte-string ids.
@_cdecl("sift_set_create")
public func sift_set_create(_ idType: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    guard let out else { throw Failure(.null, "out is NULL") }
    out.pointee = nil
    guard idType == 0 || idType == 1 else { throw Failure(.argument, "the id type is SIFT_ID_NUMBER or SIFT_ID_BYTES") }
    try Reporting.publish(PredicateSetObject(bytes: idType == 1), to: out)
    return Status.ok.rawValue
  }
}

/// `sift_set_free` (include/sift.h): Frees a set.
@_cdecl("sift_set_free")
public func sift_set_free(_ set: OpaquePointer?) -> Int32 {
  HandleTable.shared.remove(set, as: PredicateSetObject.self) == nil ? Status.handle.rawValue : Status.ok.rawValue
}

/// The set and predicate of an insertion, checked.
private func insertion(_ set: OpaquePointer?, _ predicate: OpaquePointer?, bytes: Bool) throws(Failure) -> (
  PredicateSetObject, CompiledPredicate
) {
  let target = try Reporting.object(set, PredicateSetObject.self, "set")
  let compiled = try Reporting.object(predicate, CompiledPredicate.self, "predicate")
  guard target.isBytes == bytes else {
    throw Failure(.argument, bytes ? "the set has number ids" : "the set has byte ids")
  }
  guard compiled.fitsASet else {
    throw Failure(.argument, "a set cannot hold a predicate compiled with variables or SIFT_COMPILE_APNS")
  }
  return (target, compiled)
}

/// `sift_set_insert` (include/sift.h): Adds a predicate under a number id.
@_cdecl("sift_set_insert")
public func sift_set_insert(_ set: OpaquePointer?, _ id: UInt64, _ predicate: OpaquePointer?) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let (target, compiled) = try insertion(set, predicate, bytes: false)
    target.insert(compiled, number: id)
    return Status.ok.rawValue
  }
}

/// `sift_set_insert_many` (include/sift.h): Adds many predicates under number ids as one update.
@_cdecl("sift_set_insert_many")
public func sift_set_insert_many(
  _ set: OpaquePointer?, _ ids: UnsafePointer<UInt64>?, _ predicates: UnsafePointer<OpaquePointer?>?, _ count: Int
) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let target = try Reporting.object(set, PredicateSetObject.self, "set")
    guard target.isBytes == false else { throw Failure(.argument, "the set has byte ids") }
    guard count >= 0, count <= Buffers.maxLength / 8 else { throw Failure(.tooLarge, "count is too large") }
    if count == 0 { return Status.ok.rawValue }
    guard let ids, let predicates else { throw Failure(.null, "ids or predicates is NULL") }
    var compiled: [CompiledPredicate] = []
    compiled.reserveCapacity(count)
    for k in 0..<count {
      let predicate = try Reporting.object(predicates[k], CompiledPredicate.self, "predicate \(k)")
      guard predicate.fitsASet else {
        throw Failure(.argument, "a set cannot hold a predicate compiled with variables or SIFT_COMPILE_APNS")
      }
      compiled.append(predicate)
    }
    target.insert(compiled, numbers: UnsafeBufferPointer(start: ids, count: count))
    return Status.ok.rawValue
  }
}

/// `sift_set_insert_bytes` (include/sift.h): Adds a predicate under a byte-string id.
@_cdecl("sift_set_insert_bytes")
public func sift_set_insert_bytes(
  _ set: OpaquePointer?, _ id: UnsafeRawPointer?, _ idLength: Int, _ predicate: OpaquePointer?
) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let bytes = try Buffers.required(id, idLength, what: "id")
    let (target, compiled) = try insertion(set, predicate, bytes: true)
    target.insert(compiled, bytes: Array(bytes.uint8))
    return Status.ok.rawValue
  }
}

/// The checks of an insertion from text, then the insertion.
private func insertFormat(
  _ set: OpaquePointer?, _ id: PredicateSetObject.ID, _ format: UnsafePointer<CChar>?, _ formatLength: Int,
  _ args: UnsafePointer<CChar>?, _ argsLength: Int, _ flags: UInt32
) throws(Failure) -> Int32 {
  let target = try Reporting.object(set, PredicateSetObject.self, "set")
  let text = try Buffers.required(format, formatLength, what: "format")
  let arguments = try Buffers.view(args, argsLength, what: "args_json", optional: true)
  let known = CompileFlags(rawValue: flags)
  guard known.isSubset(of: .all) else {
    throw Failure(.argument, "unknown compile flags 0x\(String(flags, radix: 16))")
  }
  guard !known.contains(.apns) else { throw Failure(.argument, "a set cannot hold a predicate with SIFT_COMPILE_APNS") }
  try target.insert(format: text, arguments: arguments, flags: known, id: id)
  return Status.ok.rawValue
}

/// `sift_set_insert_format` (include/sift.h): Parses a format and adds it under a number id,
/// without compiling it alone.
@_cdecl("sift_set_insert_format")
public func sift_set_insert_format(
  _ set: OpaquePointer?, _ id: UInt64, _ format: UnsafePointer<CChar>?, _ formatLength: Int,
  _ args: UnsafePointer<CChar>?, _ argsLength: Int, _ flags: UInt32, _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  Reporting.run(error) { () throws(Failure) -> Int32 in
    try insertFormat(set, .number(id), format, formatLength, args, argsLength, flags)
  }
}

/// `sift_set_insert_format_bytes` (include/sift.h): Parses a format and adds it under a
/// byte-string id, without compiling it alone.
@_cdecl("sift_set_insert_format_bytes")
public func sift_set_insert_format_bytes(
  _ set: OpaquePointer?, _ id: UnsafeRawPointer?, _ idLength: Int, _ format: UnsafePointer<CChar>?,
  _ formatLength: Int, _ args: UnsafePointer<CChar>?, _ argsLength: Int, _ flags: UInt32,
  _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  Reporting.run(error) { () throws(Failure) -> Int32 in
    let bytes = try Buffers.required(id, idLength, what: "id")
    return try insertFormat(set, .bytes(Array(bytes.uint8)), format, formatLength, args, argsLength, flags)
  }
}

/// `sift_set_remove` (include/sift.h): Removes a number id: 1 when it was there.
@_cdecl("sift_set_remove")
public func sift_set_remove(_ set: OpaquePointer?, _ id: UInt64) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let target = try Reporting.object(set, PredicateSetObject.self, "set")
    guard !target.isBytes else { throw Failure(.argument, "the set has byte ids") }
    return target.remove(number: id) ? 1 : 0
  }
}

/// `sift_set_remove_bytes` (include/sift.h): Removes a byte-string id: 1 when it was there.
@_cdecl("sift_set_remove_bytes")
public func sift_set_remove_bytes(_ set: OpaquePointer?, _ id: UnsafeRawPointer?, _ idLength: Int) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let target = try Reporting.object(set, PredicateSetObject.self, "set")
    let bytes = try Buffers.required(id, idLength, what: "id")
    guard target.isBytes else { throw Failure(.argument, "the set has number ids") }
    return target.remove(bytes: Array(bytes.uint8)) ? 1 : 0
  }
}

/// `sift_set_count` (include/sift.h): The number of predicates in a set.
@_cdecl("sift_set_count")
public func sift_set_count(_ set: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let target = try Reporting.object(set, PredicateSetObject.self, "set")
    guard let count else { throw Failure(.null, "count is NULL") }
    count.pointee = target.count
    return Status.ok.rawValue
  }
}

/// `sift_set_match_ids` (include/sift.h): The number ids whose predicates match a document, into a caller buffer.
@_cdecl("sift_set_match_ids")
public func sift_set_match_ids(
  _ set: OpaquePointer?, _ json: UnsafePointer<CChar>?, _ length: Int, _ ids: UnsafeMutablePointer<UInt64>?,
  _ capacity: Int, _ count: UnsafeMutablePointer<Int>?, _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  Reporting.run(error) { () throws(Failure) -> Int32 in
    let target = try Reporting.object(set, PredicateSetObject.self, "set")
    let document = try Buffers.required(json, length, what: "json")
    guard let count else { throw Failure(.null, "count is NULL") }
    guard capacity >= 0 else { throw Failure(.tooLarge, "capacity is above SIFT_MAX_LENGTH") }
    if capacity > 0 && ids == nil { throw Failure(.null, "ids is NULL") }
    let found = try target.matchNumbers(document, into: ids, capacity: capacity)
    count.pointee = found
    if found > capacity {
      throw Failure(.buffer, "\(found) ids match; the buffer holds \(capacity)")
    }
    return Status.ok.rawValue
  }
}

/// `sift_set_match` (include/sift.h): The ids whose predicates match a document, as a result handle.
@_cdecl("sift_set_match")
public func sift_set_match(
  _ set: OpaquePointer?, _ json: UnsafePointer<CChar>?, _ length: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?,
  _ error: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  Reporting.run(error) { () throws(Failure) -> Int32 in
    guard let out else { throw Failure(.null, "out is NULL") }
    out.pointee = nil
    let target = try Reporting.object(set, PredicateSetObject.self, "set")
    let document = try Buffers.required(json, length, what: "json")
    try Reporting.publish(MatchesObject(try target.match(document)), to: out)
    return Status.ok.rawValue
  }
}

/// `sift_matches_count` (include/sift.h): The number of ids in a match result.
@_cdecl("sift_matches_count")
public func sift_matches_count(_ matches: OpaquePointer?, _ count: UnsafeMutablePointer<Int>?) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let result = try Reporting.object(matches, MatchesObject.self, "matches")
    guard let count else { throw Failure(.null, "count is NULL") }
    count.pointee = result.count
    return Status.ok.rawValue
  }
}

/// `sift_matches_get` (include/sift.h): One id of a match result.
@_cdecl("sift_matches_get")
public func sift_matches_get(
  _ matches: OpaquePointer?, _ index: Int, _ number: UnsafeMutablePointer<UInt64>?,
  _ bytes: UnsafeMutablePointer<UnsafeRawPointer?>?, _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
  Reporting.run { () throws(Failure) -> Int32 in
    let result = try Reporting.object(matches, MatchesObject.self, "matches")
    guard index >= 0, index < result.count else { throw Failure(.argument, "index \(index) is past the end") }
    if let numbers = result.numbers {
      number?.pointee = numbers[index]
      return 0
    }
    let id = result.bytes[index]
    bytes?.pointee = UnsafeRawPointer(id.baseAddress)
    length?.pointee = id.count
    return 1
  }
}

/// `sift_matches_free` (include/sift.h): Frees a match result.
@_cdecl("sift_matches_free")
public func sift_matches_free(_ matches: OpaquePointer?) -> Int32 {
  HandleTable.shared.remove(matches, as: MatchesObject.self) == nil ? Status.handle.rawValue : Status.ok.rawValue
}
