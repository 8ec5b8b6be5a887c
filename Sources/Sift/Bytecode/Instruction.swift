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
  @inline(__always) var rawOpcode: UInt8 { UInt8(truncatingIfNeeded: bits) }
  @inline(__always) var a: Int { Int(UInt16(truncatingIfNeeded: bits >> 8)) }
  @inline(__always) var b: Int { Int(UInt16(truncatingIfNeeded: bits >> 24)) }
  @inline(__always) var c: Int { Int(UInt16(truncatingIfNeeded: bits >> 40)) }
  @inline(__always) var d: Int { Int(UInt8(truncatingIfNeeded: bits >> 56)) }
}

/// Operand limits that follow from the encoding.
enum InstructionLimits {
  static let maxOperand = Int(UInt16.max)
}
