import CSiftJSON
import Dispatch
import Sift
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `sift filter --threads N` for N > 1: the reading thread cuts the input into chunks of
/// whole lines, N threads decide chunks (each with its own ``LineEvaluator``: simdjson's
/// parser and the record are per thread), and the reading thread writes each chunk's
/// output in input order. The bytes written, the error reports and the counts are exactly
/// those of one thread: a chunk's output is the output its lines would have produced.
///
/// At most `2 × N` chunks are in flight (each about one read block, 1 MiB, plus its output),
/// and no more than `2 × N` MiB of input while a chunk holds long lines (up to the reader's
/// `maxLineBytes` each), so memory stays flat for any input length.
struct ParallelFilter {
  /// One batch of whole lines, copied out of the reader's buffer, with simdjson's padding
  /// after the last.
  final class Chunk: @unchecked Sendable {
    var bytes: [UInt8] = []
    var lines: [LineRef] = []
    var firstNumber = 0
    // Set by the worker, read by the writer after the chunk's semaphore was signalled.
    var output = ChunkOutput()
    var errors: [PendingError] = []
    var counts = FilterCounts()
    let done = DispatchSemaphore(value: 0)
  }

  /// Where one line sits in its chunk.
  struct LineRef {
    var start: Int
    /// The line's bytes (0 for a line over the limit: nothing of it is held).
    var count: Int
    /// The ending's length; -1 marks a line over the limit (``isTooLong``), which keeps the
    /// reference as small as the others on the hot path.
    var ending: Int
    var endsWithNewline: Bool

    /// A line over the limit.
    static let tooLong = LineRef(start: 0, count: 0, ending: -1, endsWithNewline: false)

    var isTooLong: Bool { ending < 0 }
  }

  /// An error found by a worker, reported (stderr, `--errors`) by the writer in order.
  struct PendingError {
    var number: Int
    var message: String
    var offset: Int?
  }

  /// Evaluators not in use; a worker takes one for a chunk, waiting when all are taken
  /// (Dispatch may run more jobs at once than there are evaluators).
  final class EvaluatorPool: Sendable {
    private let free: Mutex<[UnsafeSendable<LineEvaluator>]>
    private let available: DispatchSemaphore
    init(_ evaluators: [LineEvaluator]) {
      free = Mutex(evaluators.map { UnsafeSendable($0) })
      available = DispatchSemaphore(value: evaluators.count)
    }
    func take() -> LineEvaluator {
      available.wait()
      return free.withLock { $0.removeLast() }.value
    }
    func give(_ evaluator: LineEvaluator) {
      free.withLock { $0.append(UnsafeSendable(evaluator)) }
      available.signal()
    }
  }

  let pool: EvaluatorPool
  let threads: Int
  let padding: Int
  /// The reader's limit, for the message about a line over it.
  let maxLineBytes: Int
  let mode: Mode

  /// What each line produces, from the options.
  struct Mode: Sendable {
    var writeMatches: Bool
    var writeOthers: Bool
    var decisions: Bool
  }

  /// Filters one input read by `reader`; false when reading failed. `counts` gets the
  /// counts of the chunks written; `report` is called for each error in input order.
  /// `outputs` (standard output first, then the `--errors` log) are written out before a
  /// read that may wait, once every chunk before it is decided and written.
  func run(
    _ reader: inout LineReader, records: DecisionRecords, outputs: [OutputBuffer], counts: inout FilterCounts,
    progress: inout Progress,
    report: (PendingError) -> Void
  ) -> Bool {
    let out = Console.out
    var inFlight: [Chunk] = []
    var inFlightBytes = 0
    // Chunks come back here once written, so their buffers (and pages) are reused.
    var spare: [Chunk] = []
    let window = 2 * threads
    // Chunks are about 1 MiB; one holding lines of up to the limit may be far larger, and
    // 2 × N of those must not be held at once.
    let byteWindow = window << 20
    let maxLineBytes = self.maxLineBytes
    let records = UnsafeSendable(records)
    let pool = self.pool
    let mode = self.mode
    let padding = self.padding
    let g = Gathering()

    func writeOut(_ chunk: Chunk) {
      chunk.done.wait()
      chunk.output.bytes.withUnsafeBufferPointer { out.write(bytes: $0) }
      out.lineComplete()
      for error in chunk.errors { report(error) }
      counts.add(chunk.counts)
      progress.update(counts)
      inFlightBytes -= chunk.bytes.count
      // A chunk that carried long lines gives its memory back instead of keeping it spare.
      if chunk.bytes.capacity > 4 << 20 { chunk.bytes = [] }
      if chunk.output.bytes.capacity > 4 << 20 { chunk.output.bytes = [] }
      spare.append(chunk)
    }
    func dispatch() {
      guard !g.lines.isEmpty else { return }
      while inFlight.count >= window || (inFlightBytes >= byteWindow && !inFlight.isEmpty) {
        writeOut(inFlight.removeFirst())
      }
      let chunk = spare.popLast() ?? Chunk()
      chunk.bytes.removeAll(keepingCapacity: true)
      if let from = g.base { chunk.bytes.append(contentsOf: UnsafeBufferPointer(start: from, count: g.gathered)) }
      chunk.bytes.append(contentsOf: repeatElement(0, count: padding))
      inFlightBytes += chunk.bytes.count
      swap(&chunk.lines, &g.lines)
      g.lines.removeAll(keepingCapacity: true)
      chunk.firstNumber = g.firstNumber
      chunk.output.bytes.removeAll(keepingCapacity: true)
      chunk.errors.removeAll()
      g.base = nil
      g.gathered = 0
      let job = UnsafeSendable(chunk)
      DispatchQueue.global().async {
        Self.decide(job.value, pool: pool, mode: mode, records: records.value, maxLineBytes: maxLineBytes)
        job.value.done.signal()
      }
      inFlight.append(chunk)
    }
    func drainFinished() {
      // Writes what is already done without waiting, so output keeps flowing.
      while let first = inFlight.first, first.done.wait(timeout: .now()) == .success {
        first.done.signal()
        writeOut(inFlight.removeFirst())
      }
    }

    let ok = reader.forEachItem(
      { (item: LineReader.Item) -> Bool in
        let line: LineReader.Line
        switch item {
        case .line(let whole): line = whole
        case .tooLong(let long):
          // Nothing of it is in the buffer: the chunk only notes where it was.
          if g.lines.isEmpty { g.firstNumber = long.number }
          g.lines.append(.tooLong)
          return !out.closed && StopSignal.requested == nil
        }
        let start = line.bytes.baseAddress!
        if g.lines.isEmpty { g.firstNumber = line.number }
        if g.base == nil { g.base = start }
        let offset = g.base!.distance(to: start)
        g.lines.append(
          LineRef(start: offset, count: line.bytes.count, ending: line.ending, endsWithNewline: line.endsWithNewline))
        g.gathered = offset + line.bytes.count + line.ending
        if g.gathered >= 1 << 20 { dispatch() }
        return !out.closed && StopSignal.requested == nil
      },
      beforeRead: { writeOutNow in
        dispatch()
        // About to wait for input (a pipe with nothing in it), or to grow the buffer:
        // everything decided so far is written first, so a slow stream is not held back
        // behind the next read.
        if writeOutNow {
          while !inFlight.isEmpty { writeOut(inFlight.removeFirst()) }
          for output in outputs { output.flush() }
        } else {
          drainFinished()
        }
      })
    // A stop or a closed output ends reading at a line boundary: the lines read so far
    // are still decided and written, whole.
    dispatch()
    while !inFlight.isEmpty { writeOut(inFlight.removeFirst()) }
    return ok
  }

  /// The lines of the chunk being gathered: contiguous in the reader's buffer (it moves
  /// only on a read, and the chunk is handed on before every read), so each line costs one
  /// `LineRef` and the chunk one copy. A class with unchecked fields: captured `var`s cost
  /// a dynamic exclusivity check per line (perf: swift_beginAccess, AccessSet::insert).
  final class Gathering {
    @exclusivity(unchecked) var lines: [LineRef] = []
    @exclusivity(unchecked) var base: UnsafePointer<UInt8>? = nil
    @exclusivity(unchecked) var gathered = 0
    @exclusivity(unchecked) var firstNumber = 0
    init() { lines.reserveCapacity(16_384) }
  }

  /// Decides every line of a chunk into its output, as ``FilterRun`` does for one line.
  static func decide(_ chunk: Chunk, pool: EvaluatorPool, mode: Mode, records: DecisionRecords, maxLineBytes: Int) {
    let evaluator = pool.take()
    defer { pool.give(evaluator) }
    let output = chunk.output
    output.bytes.reserveCapacity(mode.decisions ? chunk.lines.count * 40 : chunk.bytes.count / 2)
    var counts = FilterCounts()
    func error(_ number: Int, _ message: String, _ offset: Int?) {
      if mode.decisions {
        var record = records.errorRecord(number, message: message, offset: offset)
        record.withUTF8 { output.write(bytes: $0) }
        output.write("\n" as StaticString)
      }
      chunk.errors.append(PendingError(number: number, message: message, offset: offset))
    }
    chunk.bytes.withUnsafeBufferPointer { all in
      for (k, ref) in chunk.lines.enumerated() {
        let number = chunk.firstNumber + k
        counts.lines += 1
        if ref.isTooLong {
          counts.errors += 1
          let message = LineReader.LongLine(number: number, limit: maxLineBytes).message
          error(number, message, nil)
          continue
        }
        counts.bytes += ref.count + ref.ending
        let bytes = UnsafeBufferPointer(rebasing: all[ref.start..<(ref.start + ref.count)])
        switch evaluator.decide(bytes, readable: all.count - ref.start) {
        case .match:
          counts.matched += 1
          if mode.writeMatches {
            write(all, ref, to: output)
          } else if mode.decisions {
            records.writeDecision(number, matched: true, to: output)
          }
        case .noMatch:
          counts.notMatched += 1
          if mode.writeOthers {
            write(all, ref, to: output)
          } else if mode.decisions {
            records.writeDecision(number, matched: false, to: output)
          }
        case .error(let message, let offset):
          counts.errors += 1
          error(number, message, offset)
        }
      }
    }
    chunk.counts = counts
  }

  private static func write(_ all: UnsafeBufferPointer<UInt8>, _ ref: LineRef, to output: ChunkOutput) {
    output.write(bytes: UnsafeBufferPointer(rebasing: all[ref.start..<(ref.start + ref.count + ref.ending)]))
    if !ref.endsWithNewline { output.write("\n" as StaticString) }
  }
}

/// A chunk's output bytes (one worker writes them, then the writer reads them).
final class ChunkOutput: LineSink {
  var bytes: [UInt8] = []

  func write(bytes: UnsafeBufferPointer<UInt8>) { self.bytes.append(contentsOf: bytes) }
  func write(_ s: StaticString) {
    bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
  }
  func write(decimal value: Int) { OutputBuffer.appendDecimal(value, to: &bytes) }
  func lineComplete() {}
}

/// Hands a value that is used by one thread at a time (ordered by a semaphore or a lock)
/// across a `@Sendable` boundary.
struct UnsafeSendable<T>: @unchecked Sendable {
  let value: T
  init(_ value: T) { self.value = value }
}

extension FilterCounts {
  mutating func add(_ other: FilterCounts) {
    lines += other.lines
    bytes += other.bytes
    matched += other.matched
    notMatched += other.notMatched
    errors += other.errors
  }
}
