import CNATS

#if canImport(Glibc)
  import Glibc
#endif

/// A JetStream key-value bucket.
package final class KeyValueBucket: @unchecked Sendable {
  let raw: OpaquePointer
  /// The bucket's name.
  package let name: String

  init(_ raw: OpaquePointer, name: String) {
    self.raw = raw
    self.name = name
  }
  deinit { kvStore_Destroy(raw) }

  /// One change of the bucket, or one key's value at the start of a watch.
  package struct Entry: Sendable {
    /// What happened to the key.
    package enum Operation: Sendable { case put, delete, purge }
    package var key: String
    /// The key exactly as the server sent it, as bytes.
    package var keyBytes: [UInt8]
    package var value: [UInt8]
    package var operation: Operation
    /// The bucket's revision of this change (its stream sequence).
    package var revision: UInt64
    /// How many later changes the server had when it sent this one (0: up to date).
    package var delta: UInt64
  }

  /// Puts `value` under `key`; returns the revision.
  @discardableResult
  package func put(_ key: String, _ value: some Collection<UInt8>) throws(NATSError) -> UInt64 {
    let bytes = Array(value)
    var revision: UInt64 = 0
    let status = bytes.withUnsafeBytes { kvStore_Put(&revision, raw, key, $0.baseAddress, Int32($0.count)) }
    try check(status, "cannot put \(key) in bucket \(name)")
    return revision
  }

  /// Deletes `key` (a delete marker: watchers see a delete).
  package func delete(_ key: String) throws(NATSError) {
    try check(kvStore_Delete(raw, key), "cannot delete \(key) from bucket \(name)")
  }

  /// Follows every key: first each key's current value (then one nil entry, "up to date"),
  /// then every change as it happens.
  package func watchAll() throws(NATSError) -> Watcher {
    var options = kvWatchOptions()
    kvWatchOptions_Init(&options)
    var watcher: OpaquePointer?
    try check(kvStore_WatchAll(&watcher, raw, &options), "cannot watch bucket \(name)")
    return Watcher(watcher!)
  }

  /// A change feed of a bucket.
  package final class Watcher: @unchecked Sendable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
    deinit { kvWatcher_Destroy(raw) }

    /// What ``next(timeoutMs:)`` found.
    package enum Next: Sendable {
      /// A change (or a value of the initial read).
      case entry(Entry)
      /// Every key's value at the start of the watch has been given.
      case upToDate
      /// Nothing within the time-out.
      case timedOut
    }

    /// The next change, waiting at most `timeoutMs`.
    package func next(timeoutMs: Int64) throws(NATSError) -> Next {
      var entry: OpaquePointer?
      let status = kvWatcher_Next(&entry, raw, timeoutMs)
      if status == NATS_TIMEOUT { return .timedOut }
      try check(status, "watch")
      guard let entry else { return .upToDate }
      defer { kvEntry_Destroy(entry) }
      let keyPointer = kvEntry_Key(entry)!
      let keyBytes = Array(
        UnsafeBufferPointer(
          start: UnsafeRawPointer(keyPointer).assumingMemoryBound(to: UInt8.self), count: strlen(keyPointer)))
      let count = Int(kvEntry_ValueLen(entry))
      var value: [UInt8] = []
      if count > 0, let base = kvEntry_Value(entry) {
        value = Array(UnsafeRawBufferPointer(start: base, count: count))
      }
      let operation: Entry.Operation
      switch kvEntry_Operation(entry) {
      case kvOp_Delete: operation = .delete
      case kvOp_Purge: operation = .purge
      default: operation = .put
      }
      return .entry(
        Entry(
          key: String(decoding: keyBytes, as: UTF8.self), keyBytes: keyBytes, value: value, operation: operation,
          revision: kvEntry_Revision(entry), delta: kvEntry_Delta(entry)))
    }

    /// Stops the feed; a ``next(timeoutMs:)`` waiting returns with an error.
    package func stop() { _ = kvWatcher_Stop(raw) }
  }
}

extension NATSConnection {
  /// Creates a bucket (or binds to the same one already there).
  package func createBucket(_ name: String, replicas: Int = 1, fileStorage: Bool = true, history: UInt8 = 1)
    throws(NATSError) -> KeyValueBucket
  {
    var cfg = kvConfig()
    kvConfig_Init(&cfg)
    let bucket = strdup(name)
    defer { free(bucket) }
    cfg.Bucket = UnsafePointer(bucket)
    cfg.Replicas = Int32(replicas)
    cfg.History = history
    cfg.StorageType = fileStorage ? js_FileStorage : js_MemoryStorage
    var kv: OpaquePointer?
    try check(js_CreateKeyValue(&kv, jetStream, &cfg), "cannot create bucket \(name)")
    return KeyValueBucket(kv!, name: name)
  }

  /// Binds to an existing bucket.
  package func bucket(_ name: String) throws(NATSError) -> KeyValueBucket {
    var kv: OpaquePointer?
    try check(js_KeyValue(&kv, jetStream, name), "cannot open bucket \(name)")
    return KeyValueBucket(kv!, name: name)
  }
}
