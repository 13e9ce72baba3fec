namespace DivCon.Reporting.Plotting;

/// <summary>The marker drawn at each data point of a line series.</summary>
public enum MarkerShape
{
    /// <summary>No marker: only the line.</summary>
    None,

    /// <summary>A filled disc.</summary>
    Circle,

    /// <summary>A filled square.</summary>
    Square,

    /// <summary>A filled upward triangle.</summary>
    Triangle,

    /// <summary>A filled diamond (a square turned 45°).</summary>
    Diamond,
}
