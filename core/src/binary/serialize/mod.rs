//! The serializer. (being written)
