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
public struct FocusStore: Sendable {
  /// The configuration file.
  public let url: URL

  /// A store at `url` (the directory must exist).
  public init(url: URL) { self.url = url }

  /// The saved configuration; the default one when the file does not exist yet (a first
  /// start). An unreadable or malformed file is an error.
  public func load() throws(FocusStoreError) -> FocusConfiguration {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
      return FocusConfiguration()
    } catch {
      throw FocusStoreError(path: url.path, message: "cannot be read: \(error.localizedDescription)")
    }
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
    let temporary = String(cString: template)
    fchmod(fd, 0o644)
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
