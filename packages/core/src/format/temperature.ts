/** A temperature in °C with one decimal, as alarm messages show it: 9.23 → '9.2°C'. */
export const formatTemperature = (celsius: number): string => `${celsius.toFixed(1)}°C`;
