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
/// so memory stays flat for any input length.
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
    var count: Int
    var ending: Int
    var endsWithNewline: Bool
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
  let mode: Mode

  /// What each line produces, from the options.
  struct Mode: Sendable {
    var writeMatches: Bool
    var writeOthers: Bool
    var decisions: Bool
  }

  /// Filters one input read by `reader`; false when reading failed. `counts` gets the
  /// counts of the chunks written; `report` is called for each error in input order.
  func run(
    _ reader: inout LineReader, fd: Int32, records: DecisionRecords, counts: inout FilterCounts,
    progress: inout Progress,
    report: (PendingError) -> Void
  ) -> Bool {
    let out = Console.out
    var inFlight: [Chunk] = []
    // Chunks come back here once written, so their buffers (and pages) are reused.
    var spare: [Chunk] = []
    let window = 2 * threads
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
      spare.append(chunk)
    }
    func dispatch() {
      guard let from = g.base, !g.lines.isEmpty else { return }
      while inFlight.count >= window { writeOut(inFlight.removeFirst()) }
      let chunk = spare.popLast() ?? Chunk()
      chunk.bytes.removeAll(keepingCapacity: true)
      chunk.bytes.append(contentsOf: UnsafeBufferPointer(start: from, count: g.gathered))
      chunk.bytes.append(contentsOf: repeatElement(0, count: padding))
      swap(&chunk.lines, &g.lines)
      g.lines.removeAll(keepingCapacity: true)
      chunk.firstNumber = g.firstNumber
      chunk.output.bytes.removeAll(keepingCapacity: true)
      chunk.errors.removeAll()
      g.base = nil
      g.gathered = 0
      let job = UnsafeSendable(chunk)
      DispatchQueue.global().async {
        Self.decide(job.value, pool: pool, mode: mode, records: records.value)
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

    let ok = reader.forEachLine(
      { (line: LineReader.Line) -> Bool in
        let start = line.bytes.baseAddress!
        if g.base == nil {
          g.base = start
          g.firstNumber = line.number
        }
        let offset = g.base!.distance(to: start)
        g.lines.append(
          LineRef(start: offset, count: line.bytes.count, ending: line.ending, endsWithNewline: line.endsWithNewline))
        g.gathered = offset + line.bytes.count + line.ending
        if g.gathered >= 1 << 20 { dispatch() }
        return !out.closed && StopSignal.requested == nil
      },
      beforeRead: {
        dispatch()
        // About to wait for input (a pipe with nothing in it): everything decided so far is
        // written first, so a slow stream is not held back behind the next read.
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, 0) == 0 {
          while !inFlight.isEmpty { writeOut(inFlight.removeFirst()) }
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
  static func decide(_ chunk: Chunk, pool: EvaluatorPool, mode: Mode, records: DecisionRecords) {
    let evaluator = pool.take()
    defer { pool.give(evaluator) }
    let output = chunk.output
    output.bytes.reserveCapacity(mode.decisions ? chunk.lines.count * 40 : chunk.bytes.count / 2)
    var counts = FilterCounts()
    chunk.bytes.withUnsafeBufferPointer { all in
      for (k, ref) in chunk.lines.enumerated() {
        let number = chunk.firstNumber + k
        counts.lines += 1
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
          if mode.decisions {
            var record = records.errorRecord(number, message: message, offset: offset)
            record.withUTF8 { output.write(bytes: $0) }
            output.write("\n" as StaticString)
          }
          chunk.errors.append(PendingError(number: number, message: message, offset: offset))
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
