import Testing

@testable import Sift

/// Reads JSON from raw bytes, so tests can feed text that is not valid UTF-8.
private func readJSON(_ bytes: [UInt8], maxDepth: Int = 512) throws(JSONError) -> SiftValue {
  try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
    try SiftValue(json: buffer, maxDepth: maxDepth)
  }
}

/// The error reading `bytes` throws, or nil if it reads.
private func jsonError(_ bytes: [UInt8], maxDepth: Int = 512) -> JSONError? {
  do {
    _ = try readJSON(bytes, maxDepth: maxDepth)
    return nil
  } catch {
    return error
  }
}

/// `swift test --filter JSONTests` runs both suites.
@Suite("JSON")
enum JSONTests {}

extension JSONTests {
  @Suite("reader")
  struct Reader {
    static let values: [(String, SiftValue)] = [
      // Literals.
      ("null", .null),
      ("true", .bool(true)),
      ("false", .bool(false)),
      // Integers.
      ("0", .int(0)),
      ("-0", .int(0)),
      ("7", .int(7)),
      ("42", .int(42)),
      ("-17", .int(-17)),
      ("9223372036854775807", .int(Int.max)),
      ("-9223372036854775808", .int(Int.min)),
      // Integers that do not fit in Int become doubles.
      ("9223372036854775808", .double(9_223_372_036_854_775_808.0)),
      ("-9223372036854775809", .double(-9_223_372_036_854_775_809.0)),
      ("123456789012345678901234567890", .double(1.2345678901234568e29)),
      // Fractions and exponents.
      ("1.5", .double(1.5)),
      ("-0.25", .double(-0.25)),
      ("0.1", .double(0.1)),
      ("3.0", .double(3.0)),
      ("1e3", .double(1000)),
      ("1E3", .double(1000)),
      ("1e+2", .double(100)),
      ("2.5e-3", .double(0.0025)),
      ("-1.25E-2", .double(-0.0125)),
      ("1e-400", .double(0)),
      ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
      // Strings.
      (#""""#, .string("")),
      (#""abc""#, .string("abc")),
      (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
      (#""\u00e9""#, .string("é")),
      (#""\u00E9t\u00e9""#, .string("été")),
      (#""\u0000""#, .string("\u{0}")),
      (#""\u001F""#, .string("\u{1F}")),
      (#""\ud83d\ude00""#, .string("😀")),
      (#""\uD83D\uDE00!""#, .string("😀!")),
      (#""a\ud83d\ude00b\u00e9c""#, .string("a😀béc")),
      ("\"é😀\u{7F}\"", .string("é😀\u{7F}")),
      (#""x\u2028y""#, .string("x\u{2028}y")),
      // Arrays.
      ("[]", .array([])),
      ("[ ]", .array([])),
      (#"[1, "a", null, true, 2.5]"#, .array([.int(1), .string("a"), .null, .bool(true), .double(2.5)])),
      (
        "[[], [[]], [1, [2, [3]]]]",
        .array([.array([]), .array([.array([])]), .array([1, .array([2, .array([3])])])])
      ),
      // Objects.
      ("{}", .dictionary([:])),
      ("{ }", .dictionary([:])),
      (
        #"{"a": 1, "b": [true, {"c": null}]}"#,
        .dictionary(["a": 1, "b": .array([true, .dictionary(["c": .null])])])
      ),
      (#"{"": "", "é": {"\u00e9": []}}"#, .dictionary(["": "", "é": .dictionary(["é": .array([])])])),
      (#"{"a": 1, "a": 2}"#, .dictionary(["a": 2])),
      // Whitespace around and between tokens.
      (" \t\r\n 1 \n", .int(1)),
      ("\n{ \"a\" :\t[ 1 ,2 ] }\r\n", .dictionary(["a": .array([1, 2])])),
    ]

    @Test("reads valid JSON", arguments: values)
    func readsValue(_ text: String, _ expected: SiftValue) throws {
      #expect(try SiftValue(json: text) == expected)
      #expect(try readJSON(Array(text.utf8)) == expected)
    }

    @Test func integersStayIntegersAndFractionsStayDoubles() throws {
      guard case .int = try SiftValue(json: "10") else {
        Issue.record("10 should be an int")
        return
      }
      guard case .double = try SiftValue(json: "10.0") else {
        Issue.record("10.0 should be a double")
        return
      }
      guard case .double = try SiftValue(json: "1e1") else {
        Issue.record("1e1 should be a double")
        return
      }
    }

    static let errors: [(String, String, Int)] = [
      ("", "expected a JSON value, found end of input", 0),
      ("   ", "expected a JSON value, found end of input", 3),
      ("{", "expected a string key", 1),
      ("[", "expected a JSON value, found end of input", 1),
      ("[1", "expected ',' or ']'", 2),
      ("[1,]", "expected a JSON value", 3),
      ("[1 2]", "expected ',' or ']'", 3),
      ("[,1]", "expected a JSON value", 1),
      ("tru", "expected true", 0),
      ("nul", "expected null", 0),
      ("fals", "expected false", 0),
      ("[true, nulL]", "expected null", 7),
      ("True", "expected a JSON value", 0),
      (#"{"a" 1}"#, "expected ':'", 5),
      (#"{"a": 1,}"#, "expected a string key", 8),
      (#"{a: 1}"#, "expected a string key", 1),
      (#"{"a": 1 "b": 2}"#, "expected ',' or '}'", 8),
      (#"{"a":}"#, "expected a JSON value", 5),
      // Strings.
      (#""abc"#, "unterminated string", 0),
      (#"["ab"#, "unterminated string", 1),
      (#""a\"#, "unterminated string", 0),
      ("\"a\nb\"", "control character in string", 2),
      ("\"a\tb\"", "control character in string", 2),
      ("\"\u{1F}\"", "control character in string", 1),
      ("\"\u{0}\"", "control character in string", 1),
      (#""\x""#, "invalid escape in string", 1),
      (#""ab\'""#, "invalid escape in string", 3),
      (#""\u12""#, #"expected four hex digits after \u"#, 5),
      (#""\uZZZZ""#, #"expected four hex digits after \u"#, 3),
      (#""\ud83d""#, #"unpaired surrogate in \u escape"#, 1),
      (#""ab\ud83dx""#, #"unpaired surrogate in \u escape"#, 3),
      (#""\ud83d\u0041""#, #"unpaired surrogate in \u escape"#, 1),
      (#""\ude00""#, #"unpaired surrogate in \u escape"#, 1),
      // Numbers.
      ("01", "leading zeros are not allowed", 0),
      ("00", "leading zeros are not allowed", 0),
      ("-01", "leading zeros are not allowed", 1),
      ("[1, 007]", "leading zeros are not allowed", 4),
      ("-", "expected digits", 1),
      ("-a", "expected digits", 1),
      ("1.", "expected digits after '.'", 2),
      ("1.e5", "expected digits after '.'", 2),
      ("1e", "expected digits in the exponent", 2),
      ("1e+", "expected digits in the exponent", 3),
      (".5", "expected a JSON value", 0),
      ("+1", "expected a JSON value", 0),
      ("1e400", "number is out of range", 0),
      ("[-1e999]", "number is out of range", 1),
      // Trailing text.
      ("1 2", "unexpected text after the JSON value", 2),
      ("{} x", "unexpected text after the JSON value", 3),
      ("nullx", "unexpected text after the JSON value", 4),
      ("[1]]", "unexpected text after the JSON value", 3),
      ("\"a\"\"b\"", "unexpected text after the JSON value", 3),
    ]

    @Test("reports errors with their byte offset", arguments: errors)
    func reportsError(_ text: String, _ message: String, _ offset: Int) {
      let error = jsonError(Array(text.utf8))
      #expect(error == JSONError(message: message, offset: offset))
    }

    static let invalidUTF8: [([UInt8], Int)] = [
      ([0x22, 0x61, 0xFF, 0x22], 2),  // a byte that never appears in UTF-8
      ([0x22, 0x80, 0x22], 1),  // a lone continuation byte
      ([0x22, 0xC3, 0x28, 0x22], 1),  // a lead byte without its continuation
      ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong '/'
      ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),  // overlong, three bytes
      ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // a UTF-16 surrogate encoded as UTF-8
      ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
      ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),
      ([0x22, 0x61, 0xE2, 0x82], 2),  // cut off by the end of input
      ([0x22, 0x61, 0xE2, 0x82, 0x22], 2),  // cut off by the closing quote
      ([0x22, 0xC3, 0xA9, 0xFF, 0x22], 3),  // after a valid two-byte sequence
      ([0x22, 0x5C, 0x6E, 0xFE, 0x22], 3),  // after an escape
      ([0x7B, 0x22, 0x6B, 0xFF, 0x22, 0x3A, 0x31, 0x7D], 3),  // in a key
      ([0x5B, 0x31, 0x2C, 0x22, 0xFF, 0x22, 0x5D], 4),  // in an array
    ]

    @Test("rejects invalid UTF-8 in strings at the first bad byte", arguments: invalidUTF8)
    func invalidUTF8InString(_ bytes: [UInt8], _ offset: Int) {
      #expect(jsonError(bytes) == JSONError(message: "string is not valid UTF-8", offset: offset))
    }

    @Test func validMultiByteSequencesAreAccepted() throws {
      // U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF at the edges of Table 3-7.
      let text = "\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}"
      #expect(try readJSON([0x22] + Array(text.utf8) + [0x22]) == .string(text))
    }

    @Test func invalidUTF8OutsideStringsIsNotAValue() {
      #expect(jsonError([0xFF]) == JSONError(message: "expected a JSON value", offset: 0))
      #expect(jsonError([0x5B, 0xC3, 0xA9, 0x5D]) == JSONError(message: "expected a JSON value", offset: 1))
    }

    @Test func depthLimit() throws {
      let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
      #expect(try SiftValue(json: ok) != .null)
      let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
      #expect(
        jsonError(Array(tooDeep.utf8)) == JSONError(message: "JSON nesting is deeper than 512", offset: 512))

      #expect(try SiftValue(json: "[[]]", maxDepth: 2) == .array([.array([])]))
      #expect(
        jsonError(Array("[[[]]]".utf8), maxDepth: 2)
          == JSONError(message: "JSON nesting is deeper than 2", offset: 2))
      #expect(
        jsonError(Array(#"{"a": {"b": {}}}"#.utf8), maxDepth: 2)
          == JSONError(message: "JSON nesting is deeper than 2", offset: 12))
      #expect(
        jsonError(Array(#"[{"a": []}]"#.utf8), maxDepth: 2)
          == JSONError(message: "JSON nesting is deeper than 2", offset: 7))
      // Scalars do not count as nesting.
      #expect(try SiftValue(json: "1", maxDepth: 0) == .int(1))
      #expect(
        jsonError(Array("[]".utf8), maxDepth: 0)
          == JSONError(message: "JSON nesting is deeper than 0", offset: 0))
    }

    @Test func hostileNestingIsAnErrorNotACrash() {
      let text = String(repeating: "[{\"a\":", count: 50_000)
      #expect(jsonError(Array(text.utf8))?.message == "JSON nesting is deeper than 512")
    }

    @Test func errorDescription() {
      #expect(jsonError(Array(#"{"a" 1}"#.utf8))?.description == "expected ':' at offset 5")
    }

    @Test func memberRangesOfTheTopLevelObject() throws {
      let text = #"{"id": 1.50 , "format": "a", "nested": {"id": 2}, "id": [ 3 ]}"#
      let bytes = Array(text.utf8)
      let (value, ranges) = try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
        try SiftValue.readWithMemberRanges(json: buffer)
      }
      #expect(value == .dictionary(["id": .array([3]), "format": "a", "nested": .dictionary(["id": 2])]))
      func span(_ key: String) -> String? { ranges[key].map { String(decoding: bytes[$0], as: UTF8.self) } }
      #expect(span("id") == "[ 3 ]")
      #expect(span("format") == #""a""#)
      #expect(span("nested") == #"{"id": 2}"#)
      #expect(ranges.count == 3)
      let (_, none) = try Array("[1]".utf8).withUnsafeBufferPointer { buffer throws(JSONError) in
        try SiftValue.readWithMemberRanges(json: buffer)
      }
      #expect(none.isEmpty)
    }

    @Test func emptyBufferIsAnError() {
      let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
      #expect(throws: JSONError(message: "expected a JSON value, found end of input", offset: 0)) {
        try SiftValue(json: empty)
      }
    }
  }
}

extension JSONTests {
  @Suite("writer")
  struct Writer {
    static let roundTrip: [SiftValue] = [
      .null, .bool(true), .bool(false),
      .int(0), .int(-1), .int(42), .int(Int.max), .int(Int.min),
      .double(1.5), .double(-0.25), .double(0.1), .double(3.0), .double(1e300), .double(-1e-300),
      .double(.leastNonzeroMagnitude), .double(1e-7), .double(1e16), .double(123_456.789),
      .double(.greatestFiniteMagnitude),
      .string(""), .string("plain"), .string("quote \" backslash \\ slash /"),
      .string("\u{0}\u{1}\u{8}\t\n\u{B}\u{C}\r\u{1B}\u{1F} \u{7F}"),
      .string("é😀 e\u{301} \u{2028}\u{2029} \u{FEFF} \u{10FFFF}"),
      .array([]), .array([.null, 1, 2.5, "x", .array([.array([])])]),
      .dictionary([:]),
      .dictionary(["b": 1, "a": .array([true, .null]), "": "", "é": .dictionary(["z": 0, "y": -0.5])]),
      .dictionary(["line\nbreak": "tab\there", "\"quoted\"": .array([.dictionary(["k": "v"])])]),
    ]

    @Test("read(write(v)) == v", arguments: roundTrip)
    func roundTrips(_ value: SiftValue) throws {
      let text = value.jsonText
      #expect(try SiftValue(json: text) == value, "\(text)")
    }

    @Test func compactOutput() {
      let value: SiftValue = .dictionary(["a": .array([1, 2.5, "x", .null, true]), "b": .dictionary([:])])
      #expect(value.jsonText == #"{"a":[1,2.5,"x",null,true],"b":{}}"#)
    }

    @Test func keysAreSortedWhateverTheInsertionOrder() {
      var first: [String: SiftValue] = [:]
      for key in ["delta", "alpha", "charlie", "bravo", "Zulu", "_", "a", "aa"] { first[key] = .string(key) }
      var second: [String: SiftValue] = [:]
      for key in ["aa", "a", "_", "Zulu", "bravo", "charlie", "alpha", "delta"] { second[key] = .string(key) }
      let expected =
        #"{"Zulu":"Zulu","_":"_","a":"a","aa":"aa","alpha":"alpha","bravo":"bravo","charlie":"charlie","delta":"delta"}"#
      #expect(SiftValue.dictionary(first).jsonText == expected)
      #expect(SiftValue.dictionary(second).jsonText == expected)
      // Nested dictionaries too.
      #expect(
        SiftValue.array([.dictionary(["b": 1, "a": .dictionary(["d": 1, "c": 2])])]).jsonText
          == #"[{"a":{"c":2,"d":1},"b":1}]"#)
    }

    @Test func escapesControlCharacters() {
      #expect(
        SiftValue.string("\u{0}\u{8}\t\n\r\u{C}\u{1F}\"\\/").jsonText
          == #""\u0000\u0008\t\n\r\u000c\u001f\"\\/""#)
      // No raw byte below 0x20 survives, whatever the character.
      for scalar in 0..<0x20 {
        let text = SiftValue.string("a" + String(Unicode.Scalar(UInt8(scalar))) + "b").jsonText
        #expect(!text.utf8.contains { $0 < 0x20 }, "U+\(String(scalar, radix: 16))")
        #expect(text.hasPrefix("\"a\\"))
      }
      // Non-ASCII text is written as UTF-8, not escaped.
      #expect(SiftValue.string("é😀\u{7F}").jsonText == "\"é😀\u{7F}\"")
    }

    @Test func doublesDatesAndNonFiniteNumbers() throws {
      #expect(SiftValue.double(3.0).jsonText == "3.0")
      #expect(try SiftValue(json: SiftValue.double(3.0).jsonText) == .double(3.0))
      #expect(SiftValue.double(.infinity).jsonText == "null")
      #expect(SiftValue.double(-.infinity).jsonText == "null")
      #expect(SiftValue.double(.nan).jsonText == "null")
      #expect(SiftValue.date(secondsSinceReferenceDate: 86_400.5).jsonText == "86400.5")
      #expect(SiftValue.date(secondsSinceReferenceDate: .nan).jsonText == "null")
    }

    @Test func writerHelpersUsedByTheCLI() {
      var out = ""
      JSONWriter.writeString("a\"b", to: &out)
      out += ":"
      JSONWriter.write(.array([1, "é"]), to: &out)
      #expect(out == #""a\"b":[1,"é"]"#)
    }

    /// Strings written as bytes are the same text as written to a `String`: plain ones
    /// whole, and every escape.
    @Test(arguments: ["", "r12", "é😀", "a\"b", "back\\slash", "line\nbreak\ttab\r", "\u{01}\u{1F}", "\u{7F} "])
    func stringsWrittenAsBytesMatchStringsWrittenAsText(_ s: String) {
      var text = ""
      JSONWriter.writeString(s, to: &text)
      var bytes: [UInt8] = [0x5B]
      JSONWriter.writeString(s, to: &bytes)
      #expect(bytes == [0x5B] + Array(text.utf8))
    }
  }
}
