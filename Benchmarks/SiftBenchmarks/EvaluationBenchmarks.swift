import Foundation
import Sift
import SiftFocus

/// Evaluation rows: each workload (W1–W4, C20) through every engine, in `hot` and `stream`
/// mode, with the hand-written closure as the baseline of every ratio. The run fails (exit
/// status 1) when an engine's match count differs from the closure's.
enum EvaluationBenchmarks {
  /// Records in the hot set: the first records, evaluated again and again.
  static let hotCount = 1_000
  /// Records generated and streamed in a full run.
  static let recordCount = 1_000_000
  /// Records generated and streamed with `--quick`: a prefix of the same records, so that
  /// the slowest engines' single pass fits the time a quick run has.
  static let quickRecordCount = 50_000

  static let modes = ["hot", "stream"]

  /// Runs the selected rows; returns false when an engine disagreed with the closure.
  static func run(_ options: BenchmarkOptions) -> Bool {
    let plan = Workloads.predicates.compactMap { workload -> (name: String, modes: [String], engines: [String])? in
      let names = engines(workload.name).map(\.name)
      var selectedModes: [String] = []
      var chosen: [String] = []
      // --count evaluates the hot set only: a stream pass is not a fixed number of evaluations.
      let modes = options.count == nil ? Self.modes : ["hot"]
      for mode in modes where options.mode == nil || options.mode == mode {
        let selected = selection(names, "eval \(workload.name) \(mode)", options)
        if selected.isEmpty { continue }
        selectedModes.append(mode)
        chosen += selected.filter { !chosen.contains($0) }
      }
      return selectedModes.isEmpty ? nil : (workload.name, selectedModes, names.filter(chosen.contains))
    }
    guard !plan.isEmpty else { return true }

    // With --count only the hot set is evaluated, so only the hot set is generated.
    let generated = options.count != nil ? hotCount : options.quick ? quickRecordCount : recordCount
    let clock = ContinuousClock()
    var items = ContiguousArray<NotificationItem>()
    let generation = clock.measure { items = NotificationGenerator.records(generated) }
    let forms = InputForms(items)
    let check = Allocations.selfCheck()
    if !options.json {
      print("")
      print(
        "Evaluation: \(generated) records generated in \(seconds(generation)) (seed \(NotificationGenerator.seed)); "
          + "hot set: the first \(hotCount)")
      print(
        "Allocation counter self-check: \(check) allocation(s) for one 100-byte String "
          + (check >= 1 ? "(counting works)" : "(NOT COUNTING: allocs/eval below are wrong)"))
    }
    if check < 1 {
      FileHandle.standardError.write(Data("allocation counter does not count; see Benchmarks/README.md\n".utf8))
    }

    var agreed = true
    var conversion = Duration.zero
    for workload in plan {
      var rows: [EngineRow] = []
      // Building rows converts the records to the forms the engines take (first use only).
      conversion += clock.measure {
        rows = engines(workload.name).filter { workload.engines.contains($0.name) }.map { $0.make(forms) }
      }
      for mode in workload.modes {
        let selected = selection(rows.map(\.name), "eval \(workload.name) \(mode)", options)
        let modeRows = rows.filter { selected.contains($0.name) }
        agreed = measure(workload.name, mode, modeRows, forms, options) && agreed
      }
    }
    if !options.json { print("\nInput forms converted in \(seconds(conversion)) (before timing)") }
    // The forms hold gigabytes in millions of small allocations and the process exits right
    // after: leave them to the kernel rather than free them one by one.
    _ = Unmanaged.passRetained(forms)
    return agreed
  }

  private static func seconds(_ d: Duration) -> String { String(format: "%.1f s", d.nanoseconds / 1e9) }

  /// The engine names of one group (`eval W2 hot`) that the filter, `--engine` and `--mode`
  /// select: all of them when the filter names the group, else those whose row name
  /// (`eval W2 hot sift-kvc`) contains it. The closure, the baseline, joins any selection
  /// except with `--count`.
  static func selection(_ names: [String], _ group: String, _ options: BenchmarkOptions) -> [String] {
    var chosen = names
    if let filter = options.filter, !group.contains(filter) {
      chosen = chosen.filter { "\(group) \($0)".contains(filter) }
    }
    if let engines = options.engines { chosen = chosen.filter { engines.contains($0) } }
    if chosen.isEmpty { return [] }
    if options.count == nil, names.contains("closure"), !chosen.contains("closure") { chosen.insert("closure", at: 0) }
    return chosen
  }

  /// Times one workload in one mode and prints its rows; false if match counts disagree.
  static func measure(
    _ workload: String, _ mode: String, _ rows: [EngineRow], _ forms: InputForms, _ options: BenchmarkOptions
  ) -> Bool {
    guard !rows.isEmpty else { return true }
    let sampler = options.sampler
    let run = Interleaved(rows: rows, rounds: sampler.rounds, minimumRoundNanoseconds: sampler.minimumRoundNanoseconds)
    let baseline = rows.firstIndex { $0.name == "closure" }
    let hot = min(hotCount, forms.count)

    if let count = options.count {
      // Exactly `count` evaluations per engine, once; allocations counted during that run.
      EvaluationReport.header(
        "eval \(workload) \(mode): exactly \(count) evaluations of each engine over the hot set, once", options)
      var samples: [[Double]] = []
      var allocations: [UInt64] = []
      for row in rows {
        let single = Interleaved(rows: [row], rounds: 1, minimumRoundNanoseconds: 0)
        var sample: [[Double]] = []
        allocations.append(Allocations.count { sample = single.fixedCount(count, hotCount: hot) })
        samples.append(sample[0])
      }
      let ratios = Interleaved.medianRatios(samples, baseline: baseline)
      for (k, row) in rows.enumerated() {
        EvaluationReport.row(
          EvaluationResult(
            workload: workload, engine: row.name, mode: mode, nanosecondsPerEvaluation: samples[k][0],
            ratioToClosure: ratios[k], matches: nil,
            allocationsPerEvaluation: Double(allocations[k]) / Double(max(count, 1))), options)
      }
      return true
    }

    // Every engine must agree with the closure on the hot set before it is timed.
    let hotMatches = rows.map { $0.countMatches(0..<hot) }
    var agreed = verify(workload, "hot", rows, hotMatches, baseline, range: 0..<hot, forms)

    let samples: [[Double]]
    var matches = hotMatches
    let title: String
    if mode == "hot" {
      samples = run.hot(hotCount: hot)
      title = "eval \(workload) hot: the first \(hot) records again and again, \(sampler.rounds) interleaved rounds"
    } else {
      let stream = run.stream(recordCount: forms.count, hotCount: hot)
      samples = stream.samples
      matches = stream.matches
      agreed = verify(workload, "stream", rows, matches, baseline, range: 0..<forms.count, forms) && agreed
      title =
        "eval \(workload) stream: one pass over \(forms.count) records, \(max(sampler.rounds, rows.count)) "
        + "interleaved slices"
    }
    // Allocations: an untimed pass over the hot set, after the warm-up filled lazy caches.
    let allocations = rows.map { row in Allocations.count { blackHole(row.countMatches(0..<hot)) } }
    let ratios = Interleaved.medianRatios(samples, baseline: baseline)

    EvaluationReport.header(title, options)
    for (k, row) in rows.enumerated() {
      EvaluationReport.row(
        EvaluationResult(
          workload: workload, engine: row.name, mode: mode, nanosecondsPerEvaluation: samples[k].median,
          ratioToClosure: ratios[k], matches: matches[k],
          allocationsPerEvaluation: Double(allocations[k]) / Double(hot)), options)
    }
    return agreed
  }

  /// Compares each engine's match count with the closure's; prints the first records they
  /// disagree on.
  static func verify(
    _ workload: String, _ mode: String, _ rows: [EngineRow], _ matches: [Int], _ baseline: Int?,
    range: Range<Int>, _ forms: InputForms
  ) -> Bool {
    guard let baseline else { return true }
    var agreed = true
    for (k, row) in rows.enumerated() where matches[k] != matches[baseline] {
      agreed = false
      var report =
        "MISMATCH \(workload) \(mode): \(row.name) found \(matches[k]) matches, closure \(matches[baseline])\n"
      var shown = 0
      for i in range where row.matchesRecord(i) != rows[baseline].matchesRecord(i) {
        report += "  record \(i): closure says \(rows[baseline].matchesRecord(i)), \(row.name) says "
        report += "\(row.matchesRecord(i)): \(forms.items[i])\n"
        shown += 1
        if shown == 5 { break }
      }
      FileHandle.standardError.write(Data(report.utf8))
    }
    return agreed
  }

  // MARK: Engines

  /// An engine of a workload: its name, and how to build it over the records' forms.
  struct EngineSpec {
    let name: String
    let make: (InputForms) -> EngineRow

    init<E: Evaluator>(
      _ name: String, _ inputs: @escaping (InputForms) -> ContiguousArray<E.Input>, _ evaluator: @escaping () -> E
    ) {
      self.name = name
      make = { forms in EngineRow(name, inputs(forms), evaluator()) }
    }

    /// The batch tier over the records as columns, the predicate compiled with their schema.
    init(columns name: String, _ format: String, _ arguments: [SiftValue]) {
      self.name = name
      make = { forms in
        let columns = forms.columns
        let predicate = try! SiftPredicate(
          format: format, arguments: arguments, options: CompileOptions(schema: columns.schema))
        return EngineRow(columns: name, columns, predicate)
      }
    }

    /// The batch tier on collections of `size` records.
    init<Input: SiftInput>(
      batchesOf size: Int, _ name: String, _ inputs: @escaping (InputForms) -> ContiguousArray<Input>,
      _ predicate: @escaping () -> SiftPredicate
    ) {
      self.name = name
      make = { forms in EngineRow(batchesOf: size, name, inputs(forms), predicate()) }
    }

    /// A batch engine: the predicate filters each range of records in one call.
    init<Input: SiftInput>(
      batch name: String, _ inputs: @escaping (InputForms) -> ContiguousArray<Input>,
      _ predicate: @escaping () -> SiftPredicate
    ) {
      self.name = name
      make = { forms in EngineRow(batch: name, inputs(forms), predicate()) }
    }
  }

  /// The engines of one workload, the closure first. `sift` is Sift with the fastest natural
  /// input: the string itself for W1 (`SELF IN %@`), a schema-bound record otherwise; then
  /// the value tree, the Foundation dictionary through the adapter and the app's own struct
  /// through `SiftKeyValueCoding`; then the other peers.
  static func engines(_ workload: String) -> [EngineSpec] {
    guard let definition = Workloads.predicates.first(where: { $0.name == workload }) else { return [] }
    let allowed = Workloads.allowedAccountIDs
    let plain = { try! SiftPredicate(format: definition.format, arguments: definition.arguments) }
    if workload == "W1" {
      return [
        EngineSpec("closure", \.accountIDs) { W1Closure(allowed: allowed) },
        EngineSpec("closure-naive", \.accountIDs) { W1NaiveClosure(allowed: Set(allowed)) },
        EngineSpec("sift", \.accountIDs) { SiftStringEvaluator(predicate: plain()) },
        // Strings are not a batch input: the tier takes them one at a time (the kernel).
        EngineSpec(batch: "sift-batch", \.accountIDs, plain),
        EngineSpec("sift-focus", \.notifications) {
          SiftFocusEvaluator(filter: NotificationFilter(predicate: plain()))
        },
        EngineSpec("sift-codable", \.accountIDs) { SiftCodableEvaluator<String>(predicate: plain()) },
        EngineSpec("sift-value", \.accountValues) { SiftValueEvaluator(predicate: plain()) },
        EngineSpec("sift-any", \.accountAnys) { SiftAnyValueEvaluator(predicate: plain()) },
        EngineSpec("closure-any", \.accountAnys) { W1ClosureAny(closure: W1Closure(allowed: allowed)) },
        EngineSpec("nspredicate-block", \.accountAnys) {
          let closure = W1Closure(allowed: allowed)
          return NSPredicateBlockEvaluator<Any> { closure.evaluate($0 as! String) }
        },
        EngineSpec("predicate-macro", \.accountIDs) {
          PredicateMacroEvaluator(predicate: PredicateMacros.w1(allowed: allowed))
        },
      ]
    }

    let bound = {
      try! SiftPredicate(
        format: definition.format, arguments: definition.arguments, options: CompileOptions(schema: InputForms.schema))
    }
    let typed = {
      try! SiftPredicate(format: definition.format, arguments: definition.arguments, for: NotificationItem.self)
    }
    let closureAny: EngineSpec =
      switch workload {
      case "W2":
        EngineSpec("closure-any", \.foundationDictionaries) { W2ClosureAny(closure: W2Closure(allowed: allowed)) }
      case "W3": EngineSpec("closure-any", \.foundationDictionaries) { W3ClosureAny() }
      case "W4": EngineSpec("closure-any", \.foundationDictionaries) { W4ClosureAny() }
      default: EngineSpec("closure-any", \.foundationDictionaries) { C20ClosureAny(c: C20Closure(allowed: allowed)) }
      }
    let sift = [
      EngineSpec("sift", \.records) { SiftRecordEvaluator(predicate: bound()) },
      EngineSpec("sift-typed", \.items) { SiftTypedEvaluator<NotificationItem>(predicate: typed()) },
      EngineSpec(batch: "sift-batch", \.items, typed),
      EngineSpec(batch: "sift-batch-record", \.records, bound),
      EngineSpec(batchesOf: 8, "sift-batch-8", \.items, typed),
      EngineSpec(columns: "sift-columns", definition.format, definition.arguments),
      EngineSpec("sift-codable", \.items) { SiftCodableEvaluator<NotificationItem>(predicate: plain()) },
      EngineSpec("sift-record-built", \.items) {
        SiftRecordBuiltEvaluator(predicate: bound(), schema: InputForms.schema)
      },
      EngineSpec("sift-value", \.valueTrees) { SiftValueEvaluator(predicate: plain()) },
      EngineSpec("sift-any", \.foundationDictionaries) { SiftAnyEvaluator(predicate: plain()) },
      closureAny,
      EngineSpec("sift-kvc", \.keyValueItems) { SiftKeyValueEvaluator<KeyValueItem>(predicate: plain()) },
    ]
    switch workload {
    case "W2":
      return [
        EngineSpec("closure", \.items) { W2Closure(allowed: allowed) },
        EngineSpec("closure-naive", \.items) { W2NaiveClosure(allowed: Set(allowed)) },
      ] + sift + [
        EngineSpec("nspredicate-block", \.boxes) { blockEvaluator(W2Closure(allowed: allowed)) },
        EngineSpec("predicate-macro", \.items) {
          PredicateMacroEvaluator(predicate: PredicateMacros.w2(allowed: allowed))
        },
      ]
    case "W3":
      return [
        EngineSpec("closure", \.items) { W3Closure() },
        EngineSpec("closure-naive", \.items) { W3NaiveClosure() },
      ] + sift + [
        EngineSpec("nspredicate-block", \.boxes) { blockEvaluator(W3Closure()) },
        EngineSpec("predicate-macro", \.items) { PredicateMacroEvaluator(predicate: PredicateMacros.w3()) },
        EngineSpec("pcre2-jit", \.items) { PCRE2Evaluator(newlineAny: false) },
        EngineSpec("pcre2-jit-newline-any", \.items) { PCRE2Evaluator(newlineAny: true) },
      ]
    case "W4":
      // No predicate-macro row: see PredicateMacroPeers.swift.
      return [
        EngineSpec("closure", \.items) { W4Closure() },
        EngineSpec("closure-naive", \.items) { W4NaiveClosure() },
      ] + sift + [
        EngineSpec("nspredicate-block", \.boxes) { blockEvaluator(W4Closure()) },
        EngineSpec("foundation-range", \.items) { FoundationRangeEvaluator() },
      ]
    default:  // C20: no naive closure, no predicate-macro row.
      return [EngineSpec("closure", \.items) { C20Closure(allowed: allowed) }] + sift + [
        EngineSpec("nspredicate-block", \.boxes) { blockEvaluator(C20Closure(allowed: allowed)) }
      ]
    }
  }

  /// `NSPredicate(block:)` running `closure` on the boxed record.
  static func blockEvaluator<E: Evaluator>(_ closure: E) -> NSPredicateBlockEvaluator<NotificationBox>
  where E.Input == NotificationItem {
    NSPredicateBlockEvaluator { closure.evaluate(($0 as! NotificationBox).item) }
  }
}
