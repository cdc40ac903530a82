/// Which end of a connection a session is: the initiator dialled, the acceptor answered. The
/// initiator speaks first in the handshake (it chooses the CPace session id), and the roles order
/// the transcript both sides hash.
public enum SyncRole: String, Sendable {
    case initiator
    case acceptor
}
