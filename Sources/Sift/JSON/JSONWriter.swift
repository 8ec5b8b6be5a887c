extension SiftValue {
  /// The value as compact JSON text. Dictionary keys are sorted, so output is deterministic;
  /// dates are written as seconds since 2001-01-01; non-finite doubles as `null`.
  public var jsonText: String {
    var out = ""
    JSONWriter.write(self, to: &out)
    return out
  }
}

/// Writes JSON text; used by the CLI for its JSON Lines output.
package enum JSONWriter {
  package static func write(_ value: SiftValue, to out: inout String) {
    switch value {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d), .date(let d): out += d.isFinite ? d.description : "null"
    case .string(let s): writeString(s, to: &out)
    case .array(let elements):
      out += "["
      for (i, e) in elements.enumerated() {
        if i > 0 { out += "," }
        write(e, to: &out)
      }
      out += "]"
    case .dictionary(let entries):
      out += "{"
      for (i, key) in entries.keys.sorted().enumerated() {
        if i > 0 { out += "," }
        writeString(key, to: &out)
        out += ":"
        write(entries[key]!, to: &out)
      }
      out += "}"
    }
  }

  /// Appends `s` as a JSON string to UTF-8 bytes: what an output record built as bytes
  /// uses (`sift serve`'s record of a message's rule ids).
  package static func writeString(_ s: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    if needsNoEscape(s) {
      out.append(contentsOf: s.utf8)
    } else {
      var escaped = ""
      writeString(s, to: &escaped)
      out.append(contentsOf: escaped.utf8.dropFirst().dropLast())
    }
    out.append(UInt8(ascii: "\""))
  }

  /// Whether `s` is its own JSON string body: no quote, backslash or control character.
  private static func needsNoEscape(_ s: String) -> Bool {
    s.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
  }

  package static func writeString(_ s: String, to out: inout String) {
    out += "\""
    // Most strings need no escape: appended whole, not scalar by scalar (a scalar at a
    // time was a fifth of `sift serve`'s work writing a record of 40 rule ids).
    if needsNoEscape(s) {
      out += s
      out += "\""
      return
    }
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}
