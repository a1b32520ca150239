package store

import "errors"

// Layout is the layout version of the data this build stores: the
// embedded database's layout (its meta/format) and the Redis keys' (the
// key arbiter:layout). A build migrates data of an earlier layout when it
// opens it and refuses data of a later one with ErrNewerLayout, since it
// would misread what a newer build wrote.
const Layout = 2

// ErrNewerLayout means the stored data has a layout later than Layout: a
// newer Arbiter wrote it, and this (older) build must not run on it.
var ErrNewerLayout = errors.New("the data was written by a newer Arbiter")
