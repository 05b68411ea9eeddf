"""What people asked that kb could not answer: a local log or one in Redis shared by every replica."""
