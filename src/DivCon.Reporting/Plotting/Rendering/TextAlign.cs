namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>Where the anchor point sits along the text's advance direction.</summary>
internal enum HAlign
{
    Left,
    Center,
    Right,
}

/// <summary>Where the anchor point sits across the text: at the cap top, the middle of the capitals, the
/// baseline, or the bottom of the descenders.</summary>
internal enum VAlign
{
    Top,
    Middle,
    Baseline,
    Bottom,
}
