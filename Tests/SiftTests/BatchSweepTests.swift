import Foundation
import SiftTestSupport
import Testing

@testable import Sift

/// The batch tier's sweeps (`Machine+Sweep.swift`): the loops the rows run themselves for
/// integer comparisons, string tests and string arrays, at their edges: integer ranges at
/// `Int.min` and `Int.max`, strings of every storage form (small, long, native with spare
/// capacity, literal), a set's small members against subjects that are not small, and
/// step budgets one step either side of a swept test's charge. Each is compared with
/// `matches` one row at a time, over structs, records and columns.
@Suite("Batch tier: sweeps")
struct BatchSweepTests {
  struct Row: SiftTyped {
    var n: Int
    var s: String
    var tags: [String]
    static let siftFields = SiftFields<Row>().field("n", \.n).field("s", \.s).field("tags", \.tags)
  }

  static let schema = SiftSchema(fields: ["n", "s", "tags"])

  /// A string of `text`'s bytes stored natively with spare capacity: never small, whatever
  /// its length.
  static func spacious(_ text: String) -> String {
    var s = String()
    s.reserveCapacity(64)
    s.append(text)
    return s
  }

  static let edges = [Int.min, Int.min + 1, -1, 0, 1, 2, Int.max - 1, Int.max]

  /// The same predicate over the rows as structs, records and columns, in the tier and
  /// one by one; returns the matching offsets of the structs.
  static func agree(_ format: String, _ arguments: [SiftValue] = [], maxSteps: Int? = nil, _ rows: [Row]) throws
    -> [Int]
  {
    var options = CompileOptions()
    if let maxSteps { options.limits.maxSteps = maxSteps }
    let typed = try SiftPredicate(format: format, arguments: arguments, for: Row.self, options: options)
    let expected = rows.indices.filter { typed.matches(rows[$0]) }
    #expect(typed.indices(matching: rows) == expected, "\(format) over structs")

    var recordOptions = options
    recordOptions.schema = schema
    let onRecords = try SiftPredicate(format: format, arguments: arguments, options: recordOptions)
    let records = rows.map {
      SiftRecord(schema: schema, values: [.int($0.n), .string($0.s), .array($0.tags.map(SiftValue.string))])
    }
    #expect(
      onRecords.indices(matching: records) == records.indices.filter { onRecords.matches(records[$0]) },
      "\(format) over records")
    #expect(records.indices.filter { onRecords.matches(records[$0]) } == expected, "\(format): records and structs")

    let columns = SiftColumns([
      ("n", .integers(rows.map(\.n))), ("s", .strings(rows.map(\.s))), ("tags", .stringArrays(rows.map(\.tags))),
    ])
    let onColumns = try SiftPredicate(format: format, arguments: arguments, options: recordOptions)
    #expect(
      onColumns.indices(matching: columns) == ColumnBatchTests.oneByOne(onColumns, columns), "\(format) over columns")
    let dictionary = SiftColumns([("n", .integers(rows.map(\.n))), ("s", .dictionary(rows.map(\.s)))])
    #expect(
      onColumns.indices(matching: dictionary) == ColumnBatchTests.oneByOne(onColumns, dictionary),
      "\(format) over a dictionary")
    return expected
  }

  @Test(arguments: ["<", "<=", ">", ">=", "==", "!="])
  func integerComparisonsAtTheEdgesOfInt(op: String) throws {
    let rows = (0..<64).map { k in Row(n: Self.edges[k % Self.edges.count], s: "", tags: []) }
    for k in Self.edges {
      let matched = try Self.agree("n \(op) %@", [.int(k)], rows)
      let expected = rows.indices.filter { r in
        let x = rows[r].n
        switch op {
        case "<": return x < k
        case "<=": return x <= k
        case ">": return x > k
        case ">=": return x >= k
        case "==": return x == k
        default: return x != k
        }
      }
      #expect(matched == expected, "n \(op) \(k)")
    }
  }

  /// Every storage form, inside and outside a set of small members, and tested by
  /// needles that read the bytes.
  @Test(arguments: [
    "s IN {'abc', 'fifteen bytes!!', 'é'}", "s IN {'abc', 'sixteen bytes!!!'}", "s == 'abc'",
    "s BEGINSWITH 'fif'", "s ENDSWITH[c] 'BYTES!!'", "s CONTAINS[cd] 'e'", "s LIKE '*t*'", "s MATCHES 'a.c|.*!'",
    "ANY tags IN {'abc', 'é'}", "ALL tags BEGINSWITH 'a'",
  ])
  func everyStringFormAsOneByOne(format: String) throws {
    let texts = ["", "abc", "é", "fifteen bytes!!", "sixteen bytes!!!", "a literal longer than fifteen bytes"]
    var rows: [Row] = []
    for (k, text) in texts.enumerated() {
      for form in [text, Self.spacious(text), String(repeating: text, count: 3), String(text.reversed())] {
        rows.append(Row(n: k, s: form, tags: [form, text]))
      }
    }
    rows += rows
    let matched = try Self.agree(format, [], rows)
    #expect(!matched.isEmpty || format.hasPrefix("ALL"), "\(format) matched no row")
  }

  /// A swept test's charge against the budget, one step short and exactly enough: a
  /// CONTAINS over 4,000 bytes charges 62 steps.
  @Test(arguments: [61, 62, 63])
  func aSweptChargeAtTheBudgetsEdge(maxSteps: Int) throws {
    let long = String(repeating: "a", count: 4_000)
    let rows = (0..<40).map { k in Row(n: k, s: k % 2 == 0 ? long : "ab", tags: [k % 3 == 0 ? long : "a"]) }
    let matched = try Self.agree("s CONTAINS 'a'", [], maxSteps: maxSteps, rows)
    #expect(matched.contains(0) == (maxSteps >= 62))
    #expect(matched.contains(1))
    let any = try Self.agree("ANY tags CONTAINS 'a'", [], maxSteps: maxSteps, rows)
    // One step for the element walked, 62 for its bytes.
    #expect(any.contains(0) == (maxSteps >= 63))
  }

  /// Records whose slots hold what the schema did not promise (a number for a string, an
  /// array with a number before or after the answer, null): the sweep decides the strings
  /// it borrows and leaves the rest to the general loop, which raises or answers as one
  /// by one.
  @Test(arguments: [
    "s BEGINSWITH 'a'", "s IN {'abc', 'x'}", "ANY tags == 'abc'", "ALL tags BEGINSWITH 'a'", "n >= 1",
  ])
  func recordsOfMixedValuesAsOneByOne(format: String) throws {
    let odd: [SiftValue] = [
      .int(1), .null, .string("abc"), .string(Self.spacious("abc")), .double(2),
      .string("a literal longer than fifteen bytes"),
    ]
    let arrays: [SiftValue] = [
      .array([]), .array([.int(1), .string("abc")]), .array([.string("abc"), .int(1)]),
      .array([.string("xyz"), .int(1)]),
      .array([.string(Self.spacious("abc"))]), .string("abc"), .null,
    ]
    var records: [SiftRecord] = []
    for (k, v) in odd.enumerated() {
      for (j, a) in arrays.enumerated() {
        records.append(SiftRecord(schema: Self.schema, values: [k % 2 == 0 ? .int(j) : v, v, a]))
      }
    }
    let p = try SiftPredicate(format: format, options: CompileOptions(schema: Self.schema))
    #expect(p.program.runsInBatches)
    #expect(p.indices(matching: records) == records.indices.filter { p.matches(records[$0]) }, "\(format)")
    #expect(BorrowedValues.isAvailable)
  }

  /// An AND that is not a test chain as a whole runs split (`BatchSplit`): its tests in
  /// batches, the rest (here a comparison of two key paths) per survivor on the budget
  /// the tests left. Every budget across the edge where a row's two clauses stop fitting
  /// together answers as one by one, and the edge is crossed.
  @Test
  func aSplitConjunctionSharesEachRowsBudget() throws {
    let long = String(repeating: "a", count: 4_000)
    let rows: [SiftValue] = (0..<40).map { k in
      .dictionary(["s": .string(k % 2 == 0 ? long : "ab"), "u": .string(k % 2 == 0 ? long.uppercased() : "AB")])
    }
    var matchedRowZero: Set<Bool> = []
    for maxSteps in stride(from: 1_000, through: 1_100, by: 1) {
      var options = CompileOptions()
      options.limits.maxSteps = maxSteps
      let p = try SiftPredicate(format: "s CONTAINS 'a' AND s ==[c] u", options: options)
      #expect(!p.program.runsInBatches && p.batchSplit != nil)
      let expected = rows.indices.filter { p.matches(rows[$0]) }
      #expect(p.indices(matching: rows) == expected, "maxSteps \(maxSteps)")
      matchedRowZero.insert(expected.contains(0))
    }
    #expect(matchedRowZero == [true, false], "the budgets tried do not cross the edge")
  }

  /// What is left whole: a backtracking MATCHES (its charge depends on the steps left) and
  /// a SUBQUERY (it binds a variable).
  @Test(arguments: [
    "s BEGINSWITH 'a' AND s MATCHES '(a+)+\\\\1b' AND s ==[c] u",
    "s BEGINSWITH 'a' AND SUBQUERY(tags, $t, $t == 'x').@count > 0",
  ])
  func casesLeftWhole(format: String) throws {
    let p = try SiftPredicate(format: format)
    #expect(!p.program.runsInBatches)
    #expect(p.batchSplit == nil)
  }

  /// `StringBytes` reads every form's bytes as `utf8` does.
  @Test(arguments: [
    "", "a", "é", "fifteen bytes!!", "sixteen bytes!!!", "a literal longer than fifteen bytes", "σοφία και Straße",
  ])
  func stringBytesOfEveryForm(text: String) {
    let forms = [
      text, Self.spacious(text), String(decoding: Array(text.utf8), as: UTF8.self), String(text[...]),
      String(NSString(string: text)), text + String(repeating: "x", count: 30),
    ]
    for s in forms {
      let bytes = withUnsafePointer(to: s) { p in StringBytes.withUTF8(p) { Array($0) } }
      #expect(bytes == Array(s.utf8), "\(s.debugDescription)")
    }
    #expect(StringBytes.isAvailable)
  }
}
