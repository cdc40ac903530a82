/// The checks of `drawtogether doctor`, one function per area (`Doctor+Terminal`, `+Store`,
/// `+Discovery`, `+Settings`, `+Network`); each returns its lines.
enum Doctor {}
