import Sift

#if canImport(Glibc)
  import Glibc
#endif

/// A file named on the command line, as the exact bytes the process received. Linux file
/// names are bytes, not text: decoding one as UTF-8 first would turn an invalid byte into
/// U+FFFD and name another file (or none), so the bytes are what `open` and `stat` get,
/// and text is made of them only to show the name.
struct FileName {
  let bytes: [UInt8]

  init(_ argument: CommandLineArgument) { bytes = argument.bytes }

  init(bytes: [UInt8]) { self.bytes = bytes }

  /// `-`: standard input, as an input operand.
  static let standardInput = FileName(bytes: [UInt8(ascii: "-")])

  var isStandardInput: Bool { bytes == [UInt8(ascii: "-")] }

  /// True when the name is valid UTF-8, so that ``text`` is exactly the name.
  var isUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

  /// The name as text, each invalid UTF-8 sequence replaced by U+FFFD: lossy when
  /// ``isUTF8`` is false.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// The name for a diagnostic on stderr: valid UTF-8 as it is, each byte of an invalid
  /// sequence as `\xFF`, so that the reader sees which bytes the name holds (U+FFFD would
  /// hide them) and stderr stays valid UTF-8.
  var display: String {
    guard !isUTF8 else { return text }
    var out = ""
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        out.unicodeScalars.append(Unicode.UTF8.decode(encoded))
        offset += encoded.count
      case .error(let length):
        for byte in bytes[offset..<offset + length] {
          let hex = String(byte, radix: 16, uppercase: true)
          out += "\\x" + (hex.count == 1 ? "0" : "") + hex
        }
        offset += length
      case .emptyInput:
        return out
      }
    }
  }

  /// The name's members of a JSON record, with a comma and a space after each:
  /// `"file": "NAME", ` for a UTF-8 name. A name that is not UTF-8 gets
  /// `"file": "NAME", "file_bytes": "HEX", `: "file" is the name with U+FFFD for each
  /// invalid sequence (still a JSON string a reader can show), and "file_bytes" holds the
  /// exact bytes, two lowercase hex digits each, which is what opens the file. A bare
  /// `\u00FF` escape in "file" would be ambiguous (it is the UTF-8 name "ÿ"); hex rather
  /// than base64 because names are short and hex decodes everywhere in one call
  /// (`bytes.fromhex`, `xxd -r -p`).
  var jsonMembers: String {
    var out = ""
    JSONWriter.writeString("file", to: &out)
    out += ": "
    JSONWriter.writeString(text, to: &out)
    out += ", "
    if !isUTF8 {
      out += "\"file_bytes\": \""
      for byte in bytes {
        let hex = String(byte, radix: 16)
        out += (hex.count == 1 ? "0" : "") + hex
      }
      out += "\", "
    }
    return out
  }

  /// `open(2)` of the exact bytes; the descriptor, or -1 with `errno` set.
  func open(_ flags: Int32, mode: mode_t = 0) -> Int32 {
    withCString { Glibc.open($0, flags, mode) }
  }

  /// `stat(2)` of the exact bytes; nil with `errno` set when it fails.
  func status() -> stat? {
    var info = stat()
    return withCString { stat($0, &info) } == 0 ? info : nil
  }

  /// The name as a C string. Arguments come from `argv`, so the bytes hold no NUL.
  private func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
    (bytes + [0]).withUnsafeBufferPointer { path in
      path.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
  }
}
