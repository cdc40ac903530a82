/// Which end of a connection a session is: the initiator dialled, the acceptor answered. The roles
/// fix who is the key-exchange client and keep the two proofs of the token distinct.
public enum SyncRole: String, Sendable {
    case initiator
    case acceptor
}
