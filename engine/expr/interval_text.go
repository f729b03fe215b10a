package expr

// ParseIntervalText reads PostgreSQL's text form of an interval (as a
// cast from text does): its months, days and microseconds.
func ParseIntervalText(s string) (months, days int32, micros int64, err error) {
	iv, err := parseInterval(s)
	if err != nil {
		return 0, 0, 0, err
	}
	a := iv.arrow()
	return a.Months, a.Days, a.Nanoseconds / 1000, nil
}
