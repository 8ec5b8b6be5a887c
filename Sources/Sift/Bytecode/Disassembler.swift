/// A stable text listing of a program: one instruction per line with decoded operands and
/// its source range, then the pools. Used by golden tests and `sift explain`.
enum Disassembler {
  static func listing(_ p: Program, indent: String = "") -> String {
    let code = p.code
    var lines: [String] = []
    lines.append("\(indent)registers: \(code.registerCount)")
    for (pc, i) in code.code.enumerated() {
      let pcText = String(pc).leftPadded(4)
      lines.append("\(indent)\(pcText)  \(describe(i, p).padded(44)) ; \(code.ranges[pc])")
    }
    func pool<T>(_ name: String, _ items: some Collection<T>, _ show: (T) -> String) {
      guard !items.isEmpty else { return }
      lines.append("\(indent)\(name):")
      for (k, item) in items.enumerated() { lines.append("\(indent)  [\(k)] \(show(item))") }
    }
    pool("constants", p.pool.values) { ExpressionSyntax(.constant($0)).description }
    pool("names", code.names) { "\"\($0)\"" }
    pool("paths", code.paths) { $0.joined(separator: ".") }
    pool("comparisons", code.comparisons) { d in
      var s = (d.quantifier.map { $0.rawValue + " " } ?? "") + d.op.rawValue
      if !d.options.isEmpty { s += "[\(d.options.letters)]" }
      return s + (d.constantSlot.map { ", k\($0)" } ?? "")
    }
    pool("objects", p.pool.objects, describe)
    for (k, sub) in code.subprograms.enumerated() {
      lines.append("\(indent)subprogram [\(k)] binding $\(sub.variable):")
      lines.append(listing(sub.program, indent: indent + "  "))
    }
    return lines.joined(separator: "\n")
  }

  /// An object slot: what the constant of a test compiled to.
  static func describe(_ o: PoolObject) -> String {
    switch o {
    case .needle(let n): return "needle \"\(n.text)\"\(n.options.isEmpty ? "" : " [\(n.options.letters)]")"
    case .set(let s):
      let kind = s.count <= StringSet.linearLimit ? "linear" : "hashed"
      return "set of \(s.count) strings, \(kind)\(s.options.isEmpty ? "" : " [\(s.options.letters)]")"
    case .like: return "wildcard pattern"
    case .regex(let r):
      let how = r.isLiteralSearch ? "literal search" : r.isDotStarSearch ? "PCRE2 JIT, unanchored search" : "PCRE2 JIT"
      return "regex \"\(r.pattern)\" (\(how))"
    }
  }

  static func describe(_ i: Instruction, _ p: Program) -> String {
    let q = ["", " ANY", " ALL"]
    switch i.opcode {
    case .loadConst: return "loadConst r\(i.a), k\(i.b)"
    case .loadSelf: return "loadSelf r\(i.a)"
    case .loadRoot: return "loadRoot r\(i.a), \"\(p.code.names[i.b])\""
    case .loadSlot: return "loadSlot r\(i.a), slot \(i.b)"
    case .keyPath: return "keyPath r\(i.a), r\(i.b), path\(i.c)"
    case .loadVar: return "loadVar r\(i.a), $\(p.code.names[i.b])"
    case .storeVar: return "storeVar $\(p.code.names[i.b]), r\(i.a)"
    case .index: return "index r\(i.a), r\(i.b)[r\(i.c)]"
    case .indexSpecial: return "index r\(i.a), r\(i.b)[\(["FIRST", "LAST", "SIZE"][i.d])]"
    case .binary: return "binary r\(i.a), r\(i.b) \(BinaryOperator.allCases[i.d].rawValue) r\(i.c)"
    case .negate: return "negate r\(i.a), r\(i.b)"
    case .bitwiseNot: return "bitwiseNot r\(i.a), r\(i.b)"
    case .call: return "call r\(i.a), \(BuiltinFunction.allCases[i.c].rawValue)(r\(i.b)..<r\(i.b + i.d))"
    case .callCustom: return "callCustom r\(i.a), \"\(p.code.names[i.c])\"(r\(i.b)..<r\(i.b + i.d))"
    case .makeArray: return "makeArray r\(i.a), r\(i.b)..<r\(i.b + i.c)"
    case .cast: return "cast r\(i.a), r\(i.b), \"\(p.code.names[i.c])\""
    case .subquery: return "subquery r\(i.a), r\(i.b), sub\(i.c)"
    case .compare: return "compare r\(i.a), r\(i.b), cmp\(i.c)"
    case .compareConst: return "compareConst\(q[i.quantifier]) \(subject(i, p)), k\(i.b), cmp\(i.c)"
    case .inStrings: return "inStrings\(q[i.quantifier]) \(subject(i, p)), o\(i.b)"
    case .stringTest:
      let d = p.code.comparisons[i.c]
      return "stringTest\(q[i.quantifier]) \(subject(i, p)) \(d.op.rawValue) o\(i.b)"
    case .like: return "like\(q[i.quantifier]) \(subject(i, p)), o\(i.b)"
    case .matches: return "matches\(q[i.quantifier]) \(subject(i, p)), o\(i.b)"
    case .setFlag: return "setFlag \(i.d != 0)"
    case .not: return "not"
    case .jump: return "jump \(i.b)"
    case .jumpIfFalse: return "jumpIfFalse \(i.b)"
    case .jumpIfTrue: return "jumpIfTrue \(i.b)"
    case .flagToValue: return "flagToValue r\(i.a)"
    case .ret: return "ret"
    case .branch:
      func target(_ t: Int) -> String { t == Opcode.exitTrue ? "true" : t == Opcode.exitFalse ? "false" : "\(t)" }
      return "branch \(target(i.b)) else \(target(i.c))"
    }
  }

  /// A test instruction's subject operand.
  private static func subject(_ i: Instruction, _ p: Program) -> String {
    switch i.source {
    case .register: "r\(i.a)"
    case .evaluatedObject: "SELF"
    case .slot: "slot \(i.a)"
    case .root: "\"\(p.code.names[i.a])\""
    }
  }
}

extension String {
  func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
  func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
