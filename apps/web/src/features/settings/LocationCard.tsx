import { useMemo, useState } from 'react';
import {
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Switch,
  Typography,
} from 'antd';
import { EnvironmentOutlined, SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ClubLocationInput, type Club, type ClubLocation } from '@venue/domain';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { useToast } from '../../shared/toast/ToastProvider';
import { FormRootError } from '../../shared/forms/FormDrawer';
import { useUpdateClub } from './useSettings';
import {
  cityOptions,
  customCandleMinutesOf,
  locationValues,
  previewLocation,
  sunPreview,
  timeZoneOptions,
  toLocationInput,
  type LocationValues,
} from './locationForm';

/**
 * The club's location for halachic times (issue 14 §1; docs/calendar.md): a
 * built-in city (searchable by its Hebrew or English name) or a custom
 * location, validated by the server's own schema (ClubLocationInput; seed 001
 * §5), saved alone with PATCH /api/Club/{id} {location}, with the club's
 * candle-lighting minutes (empty: the place's custom); today's sunset,
 * nightfall and candle lighting at the chosen place are shown before saving.
 */
export function LocationCard({ club, canEdit }: { club: Club; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const message = useToast();
  const update = useUpdateClub();
  const initial = useMemo(() => locationValues(club.location), [club.location]);
  const [values, setValues] = useState<LocationValues>(initial);
  const { form, onFinish, onFinishFailed, rootError, saving } = useSchemaForm({
    schema: ClubLocationInput,
    toInput: (v: LocationValues) => toLocationInput(v),
    submit: (location) => update.mutateAsync({ id: club.id, body: { location } }),
    onSaved: () => message.success(t('common.saved')),
    fieldName: (p) => (p[0] === 'location' ? p.slice(1) : p),
  });
  const cities = useMemo(() => cityOptions(i18n.language), [i18n.language]);
  const zones = useMemo(() => timeZoneOptions().map((z) => ({ value: z, label: z })), []);
  const preview = previewLocation(values);

  return (
    <Card
      size="small"
      title={
        <span>
          <EnvironmentOutlined /> {t('settings.section_location')}
        </span>
      }
      data-testid="settings-section-location"
      extra={
        canEdit && (
          <Button
            type="primary"
            size="small"
            icon={<SaveOutlined />}
            loading={saving}
            onClick={() => form.submit()}
            data-testid="location-save"
          >
            {t('common.save')}
          </Button>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('settings.locationHelp')}</Typography.Paragraph>
      <Form<LocationValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={onFinish}
        onFinishFailed={onFinishFailed}
        onValuesChange={(changed: Partial<LocationValues>, all) => {
          // Custom from a city: start from the city's own figures.
          if (changed.mode === 'custom' && !all.name && preview) {
            const filled = { ...locationValues({ ...preview, city: null }), mode: 'custom' as const };
            form.setFieldsValue(filled);
            return setValues(filled);
          }
          setValues(all);
        }}
        disabled={!canEdit}
        data-testid="location-form"
      >
        <FormRootError message={rootError} />
        <Form.Item name="mode">
          <Radio.Group
            optionType="button"
            options={[
              { value: 'city', label: t('settings.locationCity') },
              { value: 'custom', label: t('settings.locationCustom') },
            ]}
            data-testid="location-mode"
          />
        </Form.Item>
        {values.mode === 'city' ? (
          <Form.Item name="city" label={t('settings.locationCityLabel')}>
            <Select
              showSearch={{
                filterOption: (input, o) => (o?.search ?? '').includes(input.trim().toLowerCase()),
              }}
              options={cities}
              placeholder={t('settings.locationCityPlaceholder')}
              data-testid="location-city"
            />
          </Form.Item>
        ) : (
          <CustomLocationFields zones={zones} />
        )}
        <Form.Item
          name="candleLightingMins"
          label={t('settings.locationCandleMins')}
          extra={t('settings.locationCandleMinsHelp', { mins: customCandleMinutesOf(preview) })}
        >
          <InputNumber
            min={0}
            max={90}
            precision={0}
            style={{ width: 160 }}
            styles={{ input: { direction: 'ltr' } }}
            placeholder={String(customCandleMinutesOf(preview))}
            suffix={t('settings.unit_minutes')}
            data-testid="location-candleLightingMins"
          />
        </Form.Item>
      </Form>
      <LocationPreview preview={preview} />
    </Card>
  );
}

/** The chosen place before saving: its zone, schedule, and today's sunset, nightfall and candle lighting. */
function LocationPreview({ preview }: { preview: ClubLocation | null }) {
  const { t } = useTranslation();
  const sun = preview ? sunPreview(preview) : null;
  return (
    <Descriptions size="small" column={1} bordered data-testid="location-preview">
      <Descriptions.Item label={t('settings.locationTimeZone')}>
        {/* An IANA zone name is an identifier, not a word to translate. */}
        <span dir="ltr" translate="no">
          {preview?.timeZone ?? '—'}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={t('settings.locationSchedule')}>
        {preview ? t(preview.il ? 'settings.locationIsrael' : 'settings.locationDiaspora') : '—'}
      </Descriptions.Item>
      <Descriptions.Item label={t('settings.locationTodaySunset')}>
        <span dir="ltr" data-testid="location-sunset">
          {sun?.sunset ?? '—'}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={t('settings.locationTodayNightfall')}>
        <span dir="ltr" data-testid="location-nightfall">
          {sun?.nightfall ?? '—'}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={t('settings.locationTodayCandles', { mins: sun?.candleMins ?? '—' })}>
        <span dir="ltr" data-testid="location-candles">
          {sun?.candles ?? '—'}
        </span>
      </Descriptions.Item>
    </Descriptions>
  );
}

/** The fields of a custom location; numbers in degrees and metres, the zone from the browser's IANA list. */
function CustomLocationFields({ zones }: { zones: { value: string; label: string }[] }) {
  const { t } = useTranslation();
  const number = (name: keyof LocationValues, label: string, unit: string) => (
    <Col xs={24} sm={8}>
      <Form.Item name={name} label={t(label)}>
        <InputNumber
          style={{ width: '100%' }}
          styles={{ input: { direction: 'ltr' } }}
          suffix={unit}
          data-testid={`location-${name}`}
        />
      </Form.Item>
    </Col>
  );
  return (
    <Row gutter={12}>
      <Col xs={24} sm={16}>
        <Form.Item name="name" label={t('settings.locationName')} required>
          <Input maxLength={100} data-testid="location-name" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={8}>
        <Form.Item name="countryCode" label={t('settings.locationCountryCode')}>
          <Input maxLength={2} dir="ltr" placeholder="IL" data-testid="location-countryCode" />
        </Form.Item>
      </Col>
      {number('latitude', 'settings.locationLatitude', '°')}
      {number('longitude', 'settings.locationLongitude', '°')}
      {number('elevation', 'settings.locationElevation', t('settings.unit_metres'))}
      <Col xs={24} sm={12}>
        <Form.Item name="timeZone" label={t('settings.locationTimeZone')} required>
          <Select showSearch options={zones} optionFilterProp="label" data-testid="location-timeZone" />
        </Form.Item>
      </Col>
      <Col xs={12} sm={6}>
        <Form.Item name="il" label={t('settings.locationIl')} valuePropName="checked">
          <Switch data-testid="location-il" />
        </Form.Item>
      </Col>
      <Col xs={12} sm={6}>
        <Form.Item name="geoId" label={t('settings.locationGeoId')}>
          <Input maxLength={40} dir="ltr" data-testid="location-geoId" />
        </Form.Item>
      </Col>
    </Row>
  );
}
