import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  ColorPicker as AriaColorPicker,
  ColorArea,
  ColorField,
  ColorSlider,
  ColorSwatch,
  ColorThumb,
  Dialog,
  DialogTrigger,
  Input,
  Label,
  Popover,
  parseColor,
  SliderTrack,
  Text,
} from 'react-aria-components';
import { useEditedHandler } from './form-edited.ts';
import { t } from './i18n/index.ts';

export type ColorPickerProps = {
  label: ReactNode;
  /** `#rrggbb`. */
  value: string;
  onChange: (hex: string) => void;
  description?: ReactNode;
  isDisabled?: boolean;
};

const toHex = (value: string) => {
  try {
    return parseColor(value).toString('hex');
  } catch {
    return '#FFFFFF';
  }
};

/**
 * SPEC §2 colour picker (react-aria ColorPicker): a swatch opening a saturation/brightness area and a
 * hue slider, beside a hex field for typing or pasting a colour. Gives `#RRGGBB`.
 */
export function ColorPicker({ label, value, onChange, description, isDisabled }: ColorPickerProps) {
  const hex = toHex(value);
  const changed = useEditedHandler(onChange);
  return (
    <div className="field color-picker">
      <AriaColorPicker value={hex} onChange={(color) => changed?.(color.toString('hex'))}>
        <ColorField className="color-picker__field" isDisabled={isDisabled}>
          <Label className="field__label">{label}</Label>
          <div className="color-picker__row">
            <DialogTrigger>
              <AriaButton className="color-picker__button" aria-label={t('ui.colour.pick')} isDisabled={isDisabled}>
                <ColorSwatch className="color-picker__swatch" />
              </AriaButton>
              <Popover className="popover color-picker__popover" placement="bottom start">
                <Dialog className="color-picker__dialog" aria-label={t('ui.colour.pick')}>
                  <ColorArea
                    className="color-picker__area"
                    colorSpace="hsb"
                    xChannel="saturation"
                    yChannel="brightness"
                  >
                    <ColorThumb className="color-picker__thumb" />
                  </ColorArea>
                  <ColorSlider className="color-picker__slider" colorSpace="hsb" channel="hue">
                    <Label className="field__label">{t('ui.colour.hue')}</Label>
                    <SliderTrack className="color-picker__track">
                      <ColorThumb className="color-picker__thumb" />
                    </SliderTrack>
                  </ColorSlider>
                </Dialog>
              </Popover>
            </DialogTrigger>
            <Input className="field__input color-picker__input" />
          </div>
          {description && (
            <Text slot="description" className="field__description">
              {description}
            </Text>
          )}
        </ColorField>
      </AriaColorPicker>
    </div>
  );
}
