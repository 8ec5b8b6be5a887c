import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Why the configuration file could not be read or written. Never answered by starting
/// over with an empty configuration: a user's Focus setup is not dropped silently.
public struct FocusStoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file concerned.
  public var path: String
  /// What went wrong, with the byte offset for malformed JSON.
  public var message: String

  /// `path: message`.
  public var description: String { "\(path): \(message)" }
}

/// The configuration on disk as one JSON document. Writes are atomic: the new text goes to
/// a temporary file in the same directory, is flushed to the disk, then renamed over the
/// old file, so a crash leaves either the old or the new configuration, never half of one.
/// A new file gets mode 0600 (it says which accounts a user reads when); an existing file
/// keeps its mode.
public struct FocusStore: Sendable {
  /// The configuration file.
  public let url: URL

  /// A store at `url` (the directory must exist).
  public init(url: URL) { self.url = url }

  /// The saved configuration; the default one when the file does not exist yet (a first
  /// start). An unreadable or malformed file is an error.
  public func load() throws(FocusStoreError) -> FocusConfiguration {
    guard let data = try readFile() else { return FocusConfiguration() }
    // Sift's reader first: a syntax error comes with its byte offset.
    do {
      _ = try data.withUnsafeBytes { (raw) throws(JSONError) in
        try SiftValue(json: raw.bindMemory(to: UInt8.self))
      }
    } catch {
      throw FocusStoreError(path: url.path, message: "is not valid JSON: \(error)")
    }
    do {
      return try JSONDecoder().decode(FocusConfiguration.self, from: data)
    } catch let DecodingError.keyNotFound(key, context) {
      throw FocusStoreError(path: url.path, message: "lacks \(Self.path(context.codingPath + [key]))")
    } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
      let DecodingError.dataCorrupted(context)
    {
      throw FocusStoreError(
        path: url.path, message: "has a wrong value at \(Self.path(context.codingPath)): \(context.debugDescription)")
    } catch {
      throw FocusStoreError(path: url.path, message: "cannot be decoded: \(error)")
    }
  }

  /// The file's bytes, nil when it does not exist; read with POSIX calls so a failure is
  /// the system's own words ("Is a directory"), not a Foundation error number.
  private func readFile() throws(FocusStoreError) -> Data? {
    let fd = open(url.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOENT { return nil }
      throw failure("cannot be read")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure("cannot be read") }
    if info.st_mode & S_IFMT == S_IFDIR {
      throw FocusStoreError(path: url.path, message: "is a directory, not a configuration file")
    }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { throw failure("cannot be read") }
      if n == 0 { return data }
      data.append(contentsOf: chunk[..<n])
    }
  }

  /// Writes `configuration` atomically (temporary file, fsync, rename, fsync of the directory).
  public func save(_ configuration: FocusConfiguration) throws(FocusStoreError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(configuration)
    } catch {
      throw FocusStoreError(path: url.path, message: "cannot be encoded: \(error)")
    }
    let directory = url.deletingLastPathComponent().path
    // A unique name per call (mkstemp), so concurrent saves, from tasks of one process or
    // from several processes, never write into each other's temporary file; the last
    // rename wins and every one of them leaves a whole file.
    var template = Array((directory + "/.\(url.lastPathComponent).XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw failure("cannot create a temporary file in \(directory)") }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // mkstemp made it 0600: keep that for a new file, the existing file's mode otherwise.
    var existing = stat()
    if stat(url.path, &existing) == 0 { fchmod(fd, existing.st_mode & 0o7777) }
    let written = data.withUnsafeBytes { raw -> Bool in
      var offset = 0
      while offset < raw.count {
        let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        offset += n
      }
      return true
    }
    let synced = written && fsync(fd) == 0
    close(fd)
    guard synced, rename(temporary, url.path) == 0 else {
      let error = failure("cannot write")
      unlink(temporary)
      throw error
    }
    // Make the rename itself durable.
    let dirFD = open(directory, O_RDONLY)
    if dirFD >= 0 {
      _ = fsync(dirFD)
      close(dirFD)
    }
  }

  private func failure(_ what: String) -> FocusStoreError {
    FocusStoreError(path: url.path, message: "\(what): \(String(cString: strerror(errno)))")
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
  }
}
