/// One packed 64-bit instruction:
///
/// ```
///  63      56 55            40 39            24 23             8 7        0
/// +----------+----------------+----------------+----------------+----------+
/// |    d     |       c        |       b        |       a        |  opcode  |
/// +----------+----------------+----------------+----------------+----------+
/// ```
/// `a`, `b`, `c` are 16-bit operands (registers, pool indices, jump targets); `d` is an
/// 8-bit modifier (a quantifier, a count, a sub-operation).
struct Instruction: Hashable, Sendable {
  var bits: UInt64

  init(_ op: Opcode, a: Int = 0, b: Int = 0, c: Int = 0, d: Int = 0) {
    bits =
      UInt64(op.rawValue) | UInt64(UInt16(truncatingIfNeeded: a)) << 8
      | UInt64(UInt16(truncatingIfNeeded: b)) << 24 | UInt64(UInt16(truncatingIfNeeded: c)) << 40
      | UInt64(UInt8(truncatingIfNeeded: d)) << 56
  }

  @inline(__always) var opcode: Opcode { Opcode(rawValue: UInt8(truncatingIfNeeded: bits))! }
  /// The opcode without the validity check: every instruction is built from an `Opcode`,
  /// so the low byte is always a valid raw value (the VM's dispatch uses this).
  @inline(__always) var trustedOpcode: Opcode { unsafeBitCast(UInt8(truncatingIfNeeded: bits), to: Opcode.self) }
  @inline(__always) var rawOpcode: UInt8 { UInt8(truncatingIfNeeded: bits) }
  @inline(__always) var a: Int { Int(UInt16(truncatingIfNeeded: bits >> 8)) }
  @inline(__always) var b: Int { Int(UInt16(truncatingIfNeeded: bits >> 24)) }
  @inline(__always) var c: Int { Int(UInt16(truncatingIfNeeded: bits >> 40)) }
  @inline(__always) var d: Int { Int(UInt8(truncatingIfNeeded: bits >> 56)) }

  /// For the test instructions: the quantifier in the low two bits of `d` (0 none, 1 ANY, 2 ALL).
  @inline(__always) var quantifier: Int { Int(UInt8(truncatingIfNeeded: bits >> 56) & 3) }
  /// For the test instructions: how their string work is charged (bits 4–5 of `d`).
  @inline(__always) var costClass: StringCostClass {
    unsafeBitCast(UInt8(truncatingIfNeeded: bits >> 60) & 3, to: StringCostClass.self)
  }
  /// For the test instructions: where the subject `a` is read from (bits 2–3 of `d`).
  @inline(__always) var source: SubjectSource {
    // Two bits, four cases: every value is valid.
    unsafeBitCast(UInt8(truncatingIfNeeded: bits >> 58) & 3, to: SubjectSource.self)
  }
}

/// Where a test instruction reads its subject. Reading it in place saves a load
/// instruction and a register copy for the commonest shapes (`SELF IN …`, `key OP constant`).
enum SubjectSource: UInt8, Sendable {
  /// `R[a]`
  case register = 0
  /// `SELF` (`a` unused)
  case evaluatedObject = 1
  /// record slot `a` (a key resolved through the schema)
  case slot = 2
  /// the input's key `names[a]`
  case root = 3

  /// `d` for a test instruction with this source, a quantifier code and the class of its
  /// string work in the cost model (bits 4–5).
  func modifier(quantifier: Int, cost: StringCostClass = .bytes) -> Int {
    Int(cost.rawValue) << 4 | Int(rawValue) << 2 | quantifier
  }
}

/// Operand limits that follow from the encoding.
enum InstructionLimits {
  static let maxOperand = Int(UInt16.max)
}

/// How a test instruction's string work is charged (``Cost``), decided at compile time so
/// the VM reads it from the instruction instead of from the pools.
enum StringCostClass: UInt8, Sendable {
  /// Bytes / 64: byte-wise comparison and search, linear-time regexes.
  case bytes = 0
  /// Bytes / 8: text that may be case- or diacritic-folded.
  case folded = 1
  /// LIKE: bytes × (1 + pattern bytes / 8) / 64.
  case like = 2
  /// MATCHES on PCRE2's backtracking: bytes / 64, and its tiers as they run (``Cost``).
  case backtracking = 3
}
