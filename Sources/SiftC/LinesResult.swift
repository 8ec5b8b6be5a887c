/// What `sift_predicate_evaluate_lines` found (`sift_lines`): one byte per line, optionally
/// the lines' spans and the matching lines' bytes, and the errors. Immutable once made.
final class LinesResult: HandleObject, @unchecked Sendable {
  // @unchecked: the buffers are written by the builder, then only read.
  static let kind = HandleKind.lines

  enum Line: UInt8 {
    case noMatch = 0
    case match = 1
    case error = 2
  }

  /// One line's error.
  struct LineError {
    var line: Int
    var status: Status
    var word: StaticString
    var message: CText
    var offset: Int64
  }

  let results: UnsafeMutableBufferPointer<UInt8>
  let starts: UnsafeMutableBufferPointer<UInt64>?
  let lengths: UnsafeMutableBufferPointer<UInt64>?
  let matchedBytes: UnsafeMutableBufferPointer<CChar>?
  let matchedCount: Int
  let errors: [LineError]

  fileprivate init(_ builder: Builder) {
    results = Self.copy(builder.results)
    starts = builder.spans ? Self.copy(builder.starts) : nil
    lengths = builder.spans ? Self.copy(builder.lengths) : nil
    matchedBytes = builder.matched ? Self.copy(builder.matchedBytes) : nil
    matchedCount = builder.matchedCount
    errors = builder.errors
  }

  deinit {
    results.deallocate()
    starts?.deallocate()
    lengths?.deallocate()
    matchedBytes?.deallocate()
  }

  /// Memory of its own (at least one element, so the pointer is never NULL), filled.
  private static func copy<T>(_ values: [T]) -> UnsafeMutableBufferPointer<T> {
    let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(values.count, 1))
    _ = buffer.initialize(from: values)
    return UnsafeMutableBufferPointer(rebasing: buffer[0..<values.count])
  }

  var count: Int { results.count }

  /// Collects lines in order.
  struct Builder {
    fileprivate let spans: Bool
    fileprivate let matched: Bool
    fileprivate var results: [UInt8] = []
    fileprivate var starts: [UInt64] = []
    fileprivate var lengths: [UInt64] = []
    fileprivate var matchedBytes: [CChar] = []
    fileprivate var matchedCount = 0
    fileprivate var errors: [LineError] = []

    init(spans: Bool, matched: Bool) {
      self.spans = spans
      self.matched = matched
    }

    mutating func append(_ outcome: Line, start: Int, line: UnsafeRawBufferPointer) {
      results.append(outcome.rawValue)
      if spans {
        starts.append(UInt64(start))
        lengths.append(UInt64(line.count))
      }
      if outcome == .match {
        matchedCount += 1
        if matched {
          // One copy of the bytes (a lazily mapped sequence appended element by element was
          // 13% of a bulk call's time).
          if let base = line.baseAddress {
            matchedBytes.append(
              contentsOf: UnsafeBufferPointer(start: base.assumingMemoryBound(to: CChar.self), count: line.count))
          }
          matchedBytes.append(0x0A)
        }
      }
    }

    /// The error of the line appended last.
    mutating func appendError(_ failure: Failure) {
      errors.append(
        LineError(
          line: results.count - 1, status: failure.status, word: failure.kind, message: CText(failure.message),
          offset: failure.offset.map(Int64.init) ?? -1))
    }

    func finish() -> LinesResult { LinesResult(self) }
  }
}

/// The ids of one `sift_set_match` (`sift_matches`); byte ids in memory of their own, which
/// `sift_matches_get` hands out until the object is freed.
final class MatchesObject: HandleObject, @unchecked Sendable {
  // @unchecked: written in init, then only read.
  static let kind = HandleKind.matches
  let numbers: [UInt64]?
  let bytes: [UnsafeMutableRawBufferPointer]

  init(_ ids: PredicateSetObject.IDs) {
    switch ids {
    case .numbers(let n):
      numbers = n
      bytes = []
    case .bytes(let b):
      numbers = nil
      bytes = b.map { id in
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(id.count, 1), alignment: 1)
        id.withUnsafeBytes {
          if let base = $0.baseAddress { copy.baseAddress!.copyMemory(from: base, byteCount: $0.count) }
        }
        return UnsafeMutableRawBufferPointer(rebasing: copy[0..<id.count])
      }
    }
  }

  deinit { for id in bytes { id.deallocate() } }

  var count: Int { numbers?.count ?? bytes.count }
}
