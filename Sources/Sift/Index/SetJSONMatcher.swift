import CSiftJSON

/// Matches JSON documents against a ``SiftPredicateSet`` on simdjson's DOM, as `sift
/// filter` decides a line: the document is parsed once, the set's first keys are read in
/// one pass over its top-level fields, and shared code views them where the parser keeps
/// them (``JSONRecordReader``); only a predicate of its own, when it is a candidate, sees
/// the document as a ``SiftValue``.
///
/// One matcher per thread (it owns a parser); any number of matchers may share one set.
/// The record plan follows the set's keys: it is made again when an insertion added one.
package final class SetJSONMatcher<ID: Hashable & Sendable> {
  /// What became of one document.
  package enum Outcome {
    case matched([ID])
    /// Not JSON (Sift's own reader words the error, with its byte offset).
    case invalid(JSONError)
  }

  /// As deep as Sift's own JSON reader goes.
  package static var maxDepth: Int { 512 }

  @usableFromInline let set: SiftPredicateSet<ID>
  private let parser: OpaquePointer
  private var plan: OpaquePointer?
  private var planKeys: [String] = []
  private var planGeneration = -1
  /// The index's working arrays, reused from document to document. Unchecked: a matcher
  /// is used by one thread at a time, and the dynamic check was a tenth of a short match.
  @exclusivity(unchecked) private var scratch = MatchScratch()

  package init(_ set: SiftPredicateSet<ID>) {
    self.set = set
    guard let parser = sift_json_parser_create(1 << 16, Self.maxDepth) else { fatalError("out of memory") }
    self.parser = parser
  }

  deinit {
    sift_json_parser_destroy(parser)
    if let plan { sift_json_record_plan_destroy(plan) }
  }

  /// The ids of the predicates that match the JSON document `bytes`, in insertion order;
  /// `readable` is the number of readable bytes from its start (simdjson reads up to
  /// ``SIFT_JSON_PADDING`` past the end; with fewer the document is read by Sift's own
  /// reader).
  ///
  /// A caller matching many documents uses ``withMatches(_:readable:_:)`` instead, and
  /// turns the slots into ids in its own code.
  @inlinable
  package func matches(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int) -> Outcome {
    do throws(JSONError) {
      return .matched(try withMatches(bytes, readable: readable) { slots, ids in slots.map { ids[Int($0)] } })
    } catch {
      return .invalid(error)
    }
  }

  /// The matching predicates of the JSON document `bytes` as slots, handed to `body`
  /// with the set's id of each slot (`ids[slot]`), under the set's read lock (`body` must
  /// not use the set); throws when the document is not JSON.
  ///
  /// The ids are turned into the caller's answer by the caller: this code is not
  /// specialised for the id type where it is called from another module (perf showed
  /// generic metadata lookups for each id appended here), the caller's closure is.
  @inlinable
  package func withMatches<R>(
    _ bytes: UnsafeBufferPointer<UInt8>, readable: Int, _ body: (_ slots: [UInt32], _ ids: UnsafeBufferPointer<ID>) -> R
  ) throws(JSONError) -> R {
    switch parse(bytes, readable: readable) {
    case .parsed:
      return set.lock.reading { set.withIDs { body(parsedSlots(), $0) } }
    case .value(let value):
      return withUnsafePointer(to: value) { root in
        set.lock.reading { set.withIDs { body(set.index.matches(root, string: nil), $0) } }
      }
    case .invalid(let error):
      throw error
    }
  }

  /// What parsing a document gave.
  @usableFromInline enum Parsed {
    /// simdjson holds it: ``parsedSlots()`` matches it.
    case parsed
    /// simdjson refused it but Sift's own reader took it.
    case value(SiftValue)
    case invalid(JSONError)
  }

  @usableFromInline func parse(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int) -> Parsed {
    let status = bytes.baseAddress.map { base in
      base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
        sift_json_parse(parser, $0, bytes.count, readable)
      }
    }
    if status == Int32(SIFT_JSON_OK.rawValue) { return .parsed }
    // simdjson refused it (or could not read it in place): Sift's reader has the last
    // word on what is JSON, and reads what simdjson refuses but Sift accepts (an integer
    // beyond 64 bits is a double).
    do throws(JSONError) {
      return .value(try SiftValue(json: bytes, maxDepth: Self.maxDepth))
    } catch {
      return .invalid(error)
    }
  }

  /// Under the set's read lock: the slots that match the document simdjson parsed last.
  @usableFromInline func parsedSlots() -> [UInt32] {
    let index = set.index
    if planGeneration != index.keyGeneration { makePlan(index) }
    var fields: UnsafePointer<sift_json_field>? = nil
    guard sift_json_record_fields(parser, plan, &fields) == Int32(SIFT_JSON_OK.rawValue), let fields else {
      // Not an object: a key on an array maps over it, on a number it fails; the value
      // decides.
      return withUnsafePointer(to: document()) { index.matches($0, string: nil) }
    }
    return planKeys.withUnsafeBufferPointer { keys in
      let reader = JSONRecordReader(parser: parser, plan: plan!, fields: fields, keys: keys)
      return index.match(reader, scratch: &scratch) { self.document() }
    }
  }

  /// Under the set's read lock: a record plan for the keys the set reads now.
  private func makePlan(_ index: PredicateIndex) {
    if let plan { sift_json_record_plan_destroy(plan) }
    planKeys = index.readKeys
    planGeneration = index.keyGeneration
    // Every key's bytes in one buffer (a key may hold a NUL: nothing here is a C string);
    // the plan copies them.
    var bytes: [CChar] = []
    var ranges: [Range<Int>] = []
    for key in planKeys {
      let start = bytes.count
      bytes.append(contentsOf: key.utf8.lazy.map { CChar(bitPattern: $0) })
      ranges.append(start..<bytes.count)
    }
    bytes.append(0)
    let made = bytes.withUnsafeBufferPointer { all in
      let cKeys = ranges.map { sift_json_key(ptr: all.baseAddress! + $0.lowerBound, len: $0.count) }
      return sift_json_record_plan_create(cKeys, cKeys.count)
    }
    guard let made else { fatalError("out of memory") }
    plan = made
  }

  /// The whole parsed document as a value.
  private func document() -> SiftValue {
    var events: UnsafePointer<sift_json_event>? = nil
    var count = 0
    var none = sift_json_key(ptr: nil, len: 0)
    let status = sift_json_value_at(parser, &none, 0, &events, &count)
    guard status == Int32(SIFT_JSON_OK.rawValue), let events else { return .null }
    return JSONEventValue.value(UnsafeBufferPointer(start: events, count: count))
  }
}
