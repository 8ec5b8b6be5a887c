/// The record's value at each key path the index knows (``PredicateIndex``'s interned
/// paths), read at most once per match: by the group that looks it up, then by every
/// candidate that compares it. Lives in stack memory for one match.
struct PathValues {
  /// What is known of a path.
  enum State: UInt8 {
    case unread
    /// Read, through dictionaries only.
    case read
    /// Read, mapping over an array on the way (the VM charges steps for it).
    case mappedArray
    /// Reading it fails: every comparison on it fails.
    case failed
  }

  let root: UnsafePointer<SiftValue>
  let paths: UnsafeBufferPointer<[String]>
  let values: UnsafeMutablePointer<SiftValue>
  let states: UnsafeMutablePointer<State>

  /// Calls `body` with the values of `paths` on `root`, none read yet.
  static func with<R>(_ root: UnsafePointer<SiftValue>, _ paths: [[String]], _ body: (PathValues) -> R) -> R {
    paths.withUnsafeBufferPointer { paths in
      withUnsafeTemporaryAllocation(of: SiftValue.self, capacity: max(paths.count, 1)) { values in
        withUnsafeTemporaryAllocation(of: State.self, capacity: max(paths.count, 1)) { states in
          states.initialize(repeating: .unread)
          let cache = PathValues(root: root, paths: paths, values: values.baseAddress!, states: states.baseAddress!)
          defer {
            for i in 0..<paths.count where states[i] == .read || states[i] == .mappedArray {
              (values.baseAddress! + i).deinitialize(count: 1)
            }
          }
          return body(cache)
        }
      }
    }
  }

  /// The value at path `i`, or nil when reading it fails; `mapsArray` tells whether an
  /// array was mapped on the way.
  @inline(__always)
  func value(_ i: Int) -> (value: UnsafePointer<SiftValue>, mapsArray: Bool)? {
    switch states[i] {
    case .read: return (UnsafePointer(values + i), false)
    case .mappedArray: return (UnsafePointer(values + i), true)
    case .failed: return nil
    case .unread: return read(i)
    }
  }

  private func read(_ i: Int) -> (value: UnsafePointer<SiftValue>, mapsArray: Bool)? {
    let keys = paths[i]
    var mapsArray = false
    let read: SiftValue?
    if keys.isEmpty {
      read = root.pointee
    } else if keys.count == 1, case .dictionary(let d) = root.pointee {
      // The common case, without copying the record.
      read = d.literalValue(forKey: keys[0]) ?? .null
    } else {
      read = SubjectPath.value(keys, in: root.pointee, mapsArray: &mapsArray)
    }
    guard let v = read else {
      states[i] = .failed
      return nil
    }
    (values + i).initialize(to: v)
    states[i] = mapsArray ? .mappedArray : .read
    return (UnsafePointer(values + i), mapsArray)
  }
}
