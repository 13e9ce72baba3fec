namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>A point in pixel space (x right, y down) or in font units (x right, y up), by context.</summary>
internal readonly record struct PointD(double X, double Y);

/// <summary>A straight stroke piece from <see cref="A"/> to <see cref="B"/>; A = B is a dot.</summary>
internal readonly record struct Segment(PointD A, PointD B);
