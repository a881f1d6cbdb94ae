package minigrid

// Kind is a MiniGrid object type, numbered as minigrid's OBJECT_TO_IDX so that
// a Kind is also its bit in the one-hot cell encoding.
type Kind uint8

// Object types used by the environments of this package (minigrid 2.3.1
// numbering; floor, ball, box and agent are not used).
const (
	Unseen Kind = 0 // outside the agent's sight
	Empty  Kind = 1 // a visible cell holding nothing
	Wall   Kind = 2
	Door   Kind = 4
	Key    Kind = 5
	Goal   Kind = 8
	Lava   Kind = 9
)

// String names the kind in lower case ("lava").
func (k Kind) String() string {
	switch k {
	case Unseen:
		return "unseen"
	case Empty:
		return "empty"
	case Wall:
		return "wall"
	case Door:
		return "door"
	case Key:
		return "key"
	case Goal:
		return "goal"
	case Lava:
		return "lava"
	}
	return "unknown"
}

// Color is a MiniGrid colour index (COLOR_TO_IDX).
type Color uint8

// Colours in minigrid's order.
const (
	Red    Color = 0
	Green  Color = 1
	Blue   Color = 2
	Purple Color = 3
	Yellow Color = 4
	Grey   Color = 5
)

// String names the colour in lower case.
func (c Color) String() string {
	names := [...]string{"red", "green", "blue", "purple", "yellow", "grey"}
	if int(c) < len(names) {
		return names[c]
	}
	return "unknown"
}

// State is a door state; every other object has state Open (0).
type State uint8

// Door states in minigrid's encoding.
const (
	Open   State = 0
	Closed State = 1
	Locked State = 2
)

// Object is the content of one grid cell as minigrid encodes it:
// (type, colour, state). A cell holding nothing is Object{Kind: Empty}.
type Object struct {
	Kind  Kind
	Color Color
	State State
}

// The objects the layouts use.
var (
	nothing    = Object{Kind: Empty}
	unseenCell = Object{Kind: Unseen}
	wallObj    = Object{Kind: Wall, Color: Grey}
	goalObj    = Object{Kind: Goal, Color: Green}
	lavaObj    = Object{Kind: Lava, Color: Red}
	keyObj     = Object{Kind: Key, Color: Yellow}
	lockedDoor = Object{Kind: Door, Color: Yellow, State: Locked}
)

// canOverlap reports whether the agent may stand on the object.
func (o Object) canOverlap() bool {
	switch o.Kind {
	case Empty, Goal, Lava:
		return true
	case Door:
		return o.State == Open
	}
	return false
}

// seeBehind reports whether the object lets the agent see past it.
func (o Object) seeBehind() bool {
	switch o.Kind {
	case Wall:
		return false
	case Door:
		return o.State == Open
	}
	return true
}

// bits is the 20-bit one-hot code of the object: bit Kind (0..10), bit
// 11+Color (11..16) and bit 17+State (17..19).
func (o Object) bits() uint32 {
	return 1<<uint(o.Kind) | 1<<(11+uint(o.Color)) | 1<<(17+uint(o.State))
}
