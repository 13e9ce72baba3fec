namespace DivCon.Reporting.Plotting;

/// <summary>From <paramref name="Time"/> on, layer <paramref name="Layer"/> holds <paramref name="Value"/>
/// (until its next change), e.g. "at 1.25 s program 2 holds 3 cores".</summary>
/// <param name="Time">When the value takes effect.</param>
/// <param name="Layer">Index of the layer in the list of layer names.</param>
/// <param name="Value">The value held from then on (≥ 0).</param>
public readonly record struct StepChange(double Time, int Layer, double Value);
