/// How urgently a notification asks for attention, as in `UNNotificationInterruptionLevel`.
///
/// The raw values are the strings an APNs payload carries in `aps.interruption-level`.
public enum InterruptionLevel: String, Sendable, Codable, CaseIterable {
  /// Added to the notification list without lighting the screen or playing a sound.
  case passive
  /// The default: presented immediately, with sound, but never breaking through a Focus.
  case active
  /// Presented immediately and allowed to break through a Focus that permits it.
  case timeSensitive = "time-sensitive"
  /// Presented even when the device is muted or a Focus is active (entitlement-gated on Apple platforms).
  case critical
}
